// The jobs that turn Calendar and Gmail into notifications.
