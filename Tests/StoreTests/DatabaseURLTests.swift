import Testing
import Foundation
import NIOSSL
@testable import Store

@Suite(.timeLimit(.minutes(5))) struct DatabaseURLTests {
    @Test func parsesAndNeverPrintsThePassword() throws {
        let url = try DatabaseURL("postgres://worker:s3cr%40t@db.internal:6543/alfred?sslmode=require")
        #expect(url.host == "db.internal" && url.port == 6543 && url.username == "worker" && url.database == "alfred")
        #expect(url.tls == .require)
        #expect(url.password?.unsafeValue == "s3cr@t")
        #expect("\(url)" == "postgres://worker@db.internal:6543/alfred")
        #expect(!String(reflecting: url).contains("s3cr"))
    }

    @Test func readsConnectTimeoutAsLibpqDoesAndHandsItToAChild() throws {
        #expect(try DatabaseURL("postgres://u@h/db").connectTimeout == .seconds(5))
        let url = try DatabaseURL("postgres://u@h/db?sslmode=disable&connect_timeout=60")
        #expect(url.connectTimeout == .seconds(60))
        #expect(try DatabaseURL(url.secretString.unsafeValue).connectTimeout == .seconds(60))
    }

    @Test(arguments: ["mysql://x@y/z", "postgres://u@h/db?connect_timeout=0", "postgres://u@h/db?connect_timeout=soon", "not a url", "postgres:///nohost", "postgres://u@h/db?sslmode=sometimes"])
    func rejectsMalformedURLsWithoutEchoingThem(_ string: String) {
        #expect(throws: StoreError.self) { try DatabaseURL(string) }
    }
}

/// Without `sslmode`, only a database on this machine is reached without TLS.
@Suite(.timeLimit(.minutes(5))) struct DatabaseTLSDefaultTests {
    @Test(arguments: ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "LOCALHOST"])
    func aDatabaseOnThisMachineNeedsNoTLS(host: String) throws {
        #expect(try DatabaseURL("postgres://u:p@\(host):5432/alfred").tls == .disable)
    }

    @Test(arguments: ["db.internal", "10.0.0.5", "postgres", "127.example.com", "128.0.0.1", "[2001:db8::1]"])
    func anyOtherHostRequiresVerifiedTLS(host: String) throws {
        let url = try DatabaseURL("postgres://u:p@\(host):5432/alfred")
        #expect(url.tls == .require)
        #expect(try DatabaseURL(url.secretString.unsafeValue).tls == .require, "a child process gets the same mode")
    }

    @Test func anExplicitModeWinsAndVerifyFullIsRequire() throws {
        #expect(try DatabaseURL("postgres://u@db.internal/alfred?sslmode=disable").tls == .disable)
        #expect(try DatabaseURL("postgres://u@localhost/alfred?sslmode=require").tls == .require)
        #expect(try DatabaseURL("postgres://u@db.internal/alfred?sslmode=verify-full").tls == .require)
        for refused in ["allow", "verify-ca"] {
            #expect(throws: StoreError.self) { try DatabaseURL("postgres://u@db.internal/alfred?sslmode=\(refused)") }
        }
    }

    @Test func aPrivateCAIsReadFromSslrootcertAndHandedOn() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-ca-\(UInt32.random(in: 0...UInt32.max)).pem")
        try Data("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = try DatabaseURL("postgres://u@db.internal/alfred?sslrootcert=\(file.path)")
        #expect(url.rootCertificatePath == file.path)
        #expect(try DatabaseURL(url.secretString.unsafeValue).rootCertificatePath == file.path)
        guard case .file(let path)? = url.tlsConfiguration.trustRoots else {
            Issue.record("the CA file is not the trust root"); return
        }
        #expect(path == file.path)
        #expect(throws: StoreError.self, "a CA that cannot be read is refused at once") {
            try DatabaseURL("postgres://u@db.internal/alfred?sslrootcert=/nonexistent/ca.pem")
        }
        #expect(throws: StoreError.self, "a CA with TLS off is a contradiction") {
            try DatabaseURL("postgres://u@db.internal/alfred?sslmode=disable&sslrootcert=\(file.path)")
        }
    }
}
