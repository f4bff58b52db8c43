import AlfredTestCluster
import Foundation

/// `promtool`, from Debian's `prometheus` package (installed by the test set-up when missing: `Prerequisites`).
enum Promtool {
    /// Runs promtool from the repository root.
    static func run(_ arguments: [String]) async throws -> (code: Int32, output: String) {
        try await AlfredTestCluster.run(try await Prerequisites.path(of: .promtool), arguments, directory: OpsFiles.root)
    }
}
