/// Local stand-ins for Google and Apple that speak the real wire formats over real sockets.
///
/// Production clients take their base URLs from configuration, so pointing them at a stand-in is a
/// config change only. Each stand-in is a ServiceLifecycle `Service` that binds 127.0.0.1, records
/// every request it serves (secrets redacted) and answers injected faults, all driven through a
/// `/_fake/...` control plane (a prefix the real services never use) or the equivalent Swift calls.
///
/// - `GoogleStandIn`: OAuth 2.0 authorize, token and revoke endpoints, Calendar v3 and Gmail v1.
/// - `APNsStandIn`: Apple's push provider API over HTTP/2 and TLS (JWT, headers, error reasons).
/// - `AppleStandIn`: Sign in with Apple's key set and identity tokens minted for test users.
public enum StandIns {}
