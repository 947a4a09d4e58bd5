package io.expresso.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An integration test: it starts a real Kafka broker, worker processes or a browser, so it takes
 * seconds to minutes. {@code ./mvnw verify -Pfast} leaves these out (the unit tests alone); the plain
 * {@code verify} runs everything.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("integration")
public @interface Integration {}
