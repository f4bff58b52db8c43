import Foundation

/// The fast tier (`.ci/fast`) runs with `ALFRED_TEST_TIER=pure`; there, whatever would start
/// Postgres, a child process or a server throws instead, so a test listed in the tier that is not
/// pure fails at once rather than quietly slowing the tier down.
public enum TestTier {
    public static var isPure: Bool { ProcessInfo.processInfo.environment["ALFRED_TEST_TIER"] == "pure" }

    static func requireImpure(_ what: String) throws {
        guard isPure else { return }
        throw EmbeddedPostgresError(
            "this test is in the fast tier (ALFRED_TEST_TIER=pure) but starts \(what); take it out of the tier's list in .ci/fast")
    }
}
