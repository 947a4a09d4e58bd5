/**
 * The live page that {@code expresso up} serves: experiments with their progress, per-category
 * accuracy tables, attack success-rate-versus-budget charts and worker/device status, pushed to
 * the browser with Server-Sent Events (Pekko HTTP). Chart.js comes from its WebJar on the
 * classpath, never from a CDN, so the page works offline.
 */
package io.expresso.web;
