package com.captchajobs.simulator;

public final class SimulatorMain {
  public static void main(String[] args) {}
}
