/** The dashboard-only node: JobRunr's dashboard with required authentication, no job server. */
package com.captchajobs.dashboard;
