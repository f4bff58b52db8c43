/// The token broker: the only process that decrypts refresh tokens and calls Google's token endpoints.
public enum TokenBrokerModule {}
