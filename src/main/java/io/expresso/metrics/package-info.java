/**
 * Metrics: the meter names that Grafana dashboards and the Prometheus scrape rely on
 * ({@link io.expresso.metrics.MeterNames}), the registry with JVM and process meters, the
 * worker-side task meters, the result-side science meters and the {@code /metrics} route.
 * Nothing here knows about actors or evaluators; callers report events.
 */
package io.expresso.metrics;
