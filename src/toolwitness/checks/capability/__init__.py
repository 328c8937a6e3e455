"""TW-CAP: annotations checked against derived roles (`annotations`), and the sampling and
elicitation capabilities (`elicitation`)."""
