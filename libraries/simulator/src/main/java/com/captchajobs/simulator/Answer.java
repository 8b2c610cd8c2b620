package com.captchajobs.simulator;

/**
 * A solved task's answer: {@code request} is what {@code res.php} returns; {@code result} and
 * {@code userAgent} are the extra fields of reCAPTCHA Enterprise and Cloudflare Challenge (else
 * null).
 */
record Answer(String request, String result, String userAgent) {}
