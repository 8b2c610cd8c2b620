package com.captchajobs.core.internal.notify;

/**
 * What {@link SolveNotifications} returns for a subscriber or listener: closing it removes that
 * one, and never fails (it removes a set or list entry).
 */
public interface Subscription extends AutoCloseable {
  @Override
  void close();
}
