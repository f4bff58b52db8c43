import AsyncHTTPClient
import NIOCore
import NIOSSL

/// HTTP clients for tests. AsyncHTTPClient's default connect timeout (10 s) is shorter than the
/// stalls a starved 2-core machine shows under a full parallel run; no test's subject is how fast a
/// loopback connect is, so test clients wait as long as the suite's time limit allows.
public enum TestHTTP {
    public static let connectTimeout: TimeAmount = .seconds(120)

    public static func configuration(_ base: HTTPClient.Configuration = HTTPClient.Configuration()) -> HTTPClient.Configuration {
        var configuration = base
        configuration.timeout.connect = connectTimeout
        return configuration
    }

    public static func client(_ base: HTTPClient.Configuration = HTTPClient.Configuration()) -> HTTPClient {
        HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(base))
    }

    /// A client that also trusts these CA certificates (PEM): the stand-ins' test CA.
    public static func client(trusting pems: [String]) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(try pems.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) })]
        return client(HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow))
    }
}
