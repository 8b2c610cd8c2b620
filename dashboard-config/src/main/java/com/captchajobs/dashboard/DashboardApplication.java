package com.captchajobs.dashboard;

public class DashboardApplication {
  public static void main(String[] args) {}
}
