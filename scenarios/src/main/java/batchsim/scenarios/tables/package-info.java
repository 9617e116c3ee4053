/**
 * The sweep and compare tables (text and CSV through reports, self-contained HTML here) and
 * locale-independent formatting.
 */
package batchsim.scenarios.tables;
