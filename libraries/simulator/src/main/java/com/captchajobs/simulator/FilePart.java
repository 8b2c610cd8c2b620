package com.captchajobs.simulator;

/** A multipart part that carried a filename. */
record FilePart(String name, String filename, byte[] bytes) {}
