import AlfredCore
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// Where the database is, parsed from `ALFRED_DATABASE_URL`
/// (`postgres://user[:password]@host[:port]/database[?sslmode=…][&sslrootcert=path][&connect_timeout=seconds]`).
///
/// Without `sslmode`, a database on this machine (`localhost`, `127.0.0.0/8`, `::1`) is reached
/// without TLS and any other host only over TLS (`require`): a password and every query must not
/// cross a network in the clear because a URL left something out. `require` (or libpq's name for
/// what it does here, `verify-full`) verifies the server's certificate chain and host name, against
/// the system's roots or the CA file `sslrootcert` names; `prefer` tries TLS and falls back;
/// `disable` never uses it. libpq's `allow` and `verify-ca` are refused rather than approximated.
public struct DatabaseURL: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: Redacted<String>?
    public var database: String
    public var tls: TLSMode
    /// A CA certificate file (PEM) to verify the server against instead of the system's roots.
    public var rootCertificatePath: String?
    /// How long one connection attempt may take (TCP connect, TLS, start-up). Short by default so a
    /// worker notices a dead server quickly; the test cluster's URLs allow much longer, because the
    /// suite deliberately runs on an overloaded machine where a backend can take seconds to fork.
    public var connectTimeout: Duration = Self.defaultConnectTimeout
    public static let defaultConnectTimeout = Duration.seconds(5)

    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public init(host: String, port: Int, username: String, password: String?, database: String, tls: TLSMode = .disable) {
        self.host = host; self.port = port; self.username = username
        self.password = password.map(Redacted.init); self.database = database; self.tls = tls
    }

    public init(_ string: String) throws {
        guard let url = URLComponents(string: string), ["postgres", "postgresql"].contains(url.scheme ?? ""),
              let host = url.host, !host.isEmpty
        else {
            throw StoreError.migration(
                "database URL must look like postgres://user:password@host:5432/database (got a malformed value)")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let tls: TLSMode
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value {
        case nil: tls = Self.isLoopback(host) ? .disable : .require
        case "verify-full"?: tls = .require
        case let sslmode?:
            guard let mode = TLSMode(rawValue: sslmode) else {
                throw StoreError.migration("database URL: sslmode must be disable, prefer, require or verify-full, not \(sslmode)")
            }
            tls = mode
        }
        self.init(host: host, port: url.port ?? 5432, username: url.user ?? "postgres",
                  password: url.password?.removingPercentEncoding, database: database.isEmpty ? "postgres" : database,
                  tls: tls)
        if let path = url.queryItems?.first(where: { $0.name == "sslrootcert" })?.value {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw StoreError.migration("database URL: sslrootcert names a file that cannot be read")
            }
            guard tls != .disable else {
                throw StoreError.migration("database URL: sslrootcert is given but sslmode is disable")
            }
            rootCertificatePath = path
        }
        if let value = url.queryItems?.first(where: { $0.name == "connect_timeout" })?.value {
            guard let seconds = Int(value), seconds > 0 else {
                throw StoreError.migration("database URL: connect_timeout must be a whole number of seconds above 0, not \(value)")
            }
            connectTimeout = .seconds(seconds)
        }
    }

    /// `localhost`, an IPv4 address in 127.0.0.0/8 or `::1`: traffic that never leaves the machine.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// TLS for `prefer` and `require`: the certificate chain and the host name are verified, against
    /// `sslrootcert` when given.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificatePath { configuration.trustRoots = .file(rootCertificatePath) }
        return configuration
    }

    /// Safe to log: no password.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// The full URL, password included, for handing to a child process. Never log it.
    public var secretString: Redacted<String> {
        var c = URLComponents()
        c.scheme = "postgres"; c.host = host; c.port = port; c.user = username
        c.password = password?.unsafeValue; c.path = "/" + database
        c.queryItems = [URLQueryItem(name: "sslmode", value: tls.rawValue)]
        if let rootCertificatePath { c.queryItems?.append(URLQueryItem(name: "sslrootcert", value: rootCertificatePath)) }
        if connectTimeout != Self.defaultConnectTimeout {
            c.queryItems?.append(URLQueryItem(name: "connect_timeout", value: "\(connectTimeout.components.seconds)"))
        }
        return Redacted(c.string ?? "")
    }

    public func clientConfiguration(maxConnections: Int = 20) -> PostgresClient.Configuration {
        let tlsConfig: PostgresClient.Configuration.TLS = switch tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration)
        case .require: .require(tlsConfiguration)
        }
        var config = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password?.unsafeValue, database: database,
            tls: tlsConfig)
        config.options.maximumConnections = maxConnections
        config.options.connectTimeout = connectTimeout
        return config
    }

    /// For a pool that runs only prepared statements built to plan well without their parameters
    /// (delivery's): the server uses the generic plan from the first run instead of re-planning each
    /// execution (about a third of delivery's database time in a burst, measured).
    public func preparedStatementsConfiguration(maxConnections: Int) -> PostgresClient.Configuration {
        var config = clientConfiguration(maxConnections: maxConnections)
        config.options.additionalStartupParameters = [("plan_cache_mode", "force_generic_plan")]
        return config
    }

    public func connectionConfiguration() -> PostgresConnection.Configuration {
        let tlsConfig: PostgresConnection.Configuration.TLS = switch tls {
        case .disable: .disable
        case .prefer: .prefer(try! .init(configuration: tlsConfiguration))
        case .require: .require(try! .init(configuration: tlsConfiguration))
        }
        var config = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password?.unsafeValue, database: database,
            tls: tlsConfig)
        config.options.connectTimeout = TimeAmount(connectTimeout)
        return config
    }
}
