import Testing
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
