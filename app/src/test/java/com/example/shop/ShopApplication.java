package com.example.shop;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A stand-in for a team's existing Boot app: it only adds the app artifact and a datasource, and
 * gets a {@code Solves} bean. It has its own JobRunr job ({@link CheckoutJob}) that solves inside
 * the job with {@code solveNow}.
 */
@SpringBootApplication
public class ShopApplication {}
