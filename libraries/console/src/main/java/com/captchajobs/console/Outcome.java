package com.captchajobs.console;

/** What a console action answered: its HTTP status and the page saying what it did. */
record Outcome(int status, String page) {}
