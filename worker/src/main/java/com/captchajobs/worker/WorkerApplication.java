package com.captchajobs.worker;

public class WorkerApplication {
  public static void main(String[] args) {}
}
