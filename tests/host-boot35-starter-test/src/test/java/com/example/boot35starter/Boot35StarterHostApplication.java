package com.example.boot35starter;

import com.example.hostcontract.RecordOrderHandler;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * An existing Spring Boot 3.5 application with JobRunr 8.4 (its own server and jobs, on Boot's
 * Jackson 2), Flyway (its own migrations in {@code public}) and Actuator (health only). The only
 * CaptchaJobs thing it has is the Boot 3 starter on its class path.
 */
@SpringBootApplication
@Import(RecordOrderHandler.class)
public class Boot35StarterHostApplication {}
