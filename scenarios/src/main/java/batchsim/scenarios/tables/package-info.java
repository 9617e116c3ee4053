/** Plain tables rendered as aligned text, CSV and self-contained HTML, and locale-independent formatting. */
package batchsim.scenarios.tables;
