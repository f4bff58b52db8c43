// The Calendar v3 and Gmail v1 clients.
