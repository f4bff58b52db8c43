import AlfredTestCluster
import Foundation
import Testing

/// docker-compose.yml as Debian's docker-compose reads it.
@Suite(.timeLimit(.minutes(10))) struct ComposeTests {
    /// Debian's docker-compose (1.29; the test set-up installs it when missing) reads the file: with every secret set it
    /// is valid; with one missing it refuses, naming it.
    @Test func dockerComposeRefusesToStartWithoutItsSecrets() async throws {
        let path = try await Prerequisites.path(of: .dockerCompose)
        var environment = Dictionary(uniqueKeysWithValues: DeploymentTests.secrets.map { ($0, "test-\($0.lowercased())") })
        environment["APNS_KEY_PATH"] = "/dev/null"
        let valid = try await AlfredTestCluster.run(path, ["-f", DeploymentTests.compose, "config", "-q"], environment: environment,
                                                directory: Repository.root)
        #expect(valid.code == 0, "\(valid.output)")
        environment["ALFRED_SECRETS_DIR"] = nil
        let refused = try await AlfredTestCluster.run(path, ["-f", DeploymentTests.compose, "config", "-q"], environment: environment,
                                                  directory: Repository.root)
        #expect(refused.code != 0)
        #expect(refused.output.contains("ALFRED_SECRETS_DIR"), "\(refused.output)")
    }

}
