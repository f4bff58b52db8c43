extension AppleStandIn {
    /// Where the stand-in listens and what an identity token says when the mint request leaves a
    /// field out.
    public struct Configuration: Sendable, Equatable {
        public var host = "127.0.0.1"
        /// 0 lets the OS choose; read it from `port()` or `baseURL()`.
        public var port = 0
        /// `iss` of every token (except `Override.wrongIssuer`); Apple's is fixed.
        public var issuer = "https://appleid.apple.com"
        /// The default `aud`: the app's bundle id.
        public var audience = "com.example.alfred"
        /// The default test user's Apple account id (`sub`; made up, shaped like Apple's).
        public var subject = "001842.4f2d6c0a9b7e4e1c8d3f5a6b7c8d9e0f.0931"
        /// The default `email`: a private relay address, as when the user hides their email.
        public var email = "x7d2kq9w@privaterelay.appleid.com"
        /// `exp` - `iat` of a token when the request does not say; Apple's are short-lived (minutes).
        public var tokenLifetimeSeconds = 600

        public init(host: String = "127.0.0.1", port: Int = 0, audience: String = "com.example.alfred") {
            self.host = host
            self.port = port
            self.audience = audience
        }
    }
}
