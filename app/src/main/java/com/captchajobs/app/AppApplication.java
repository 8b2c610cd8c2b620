package com.captchajobs.app;

public class AppApplication {
  public static void main(String[] args) {}
}
