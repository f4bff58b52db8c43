// Rule-based urgency for mail metadata.
