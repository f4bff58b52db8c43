import Foundation

/// Files of this repository, for tests that read them (fixtures, `ops/`, `migrations/`, docs).
/// Everything a test reads lives inside the repository: a clone alone must test.
public enum Repository {
    /// The package root, found from this source file's place in it (`Sources/<module>/Repository.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `relativePath` under the package root (`"ops/prometheus/rules.yml"`).
    public static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    /// A fixture under `Tests/Fixtures/` (`"nitro/aws-nitro-root-g1.pem"`); `Tests/Fixtures/*/README.md`
    /// says where each came from.
    public static func fixture(_ relativePath: String) -> URL { url("Tests/Fixtures/" + relativePath) }
}
