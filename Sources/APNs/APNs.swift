/// Apple Push Notification service, provider side: the ES256 provider token and the HTTP/2 client.
enum APNsModule {}
