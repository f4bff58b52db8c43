import AlfredTestKit
import Foundation
import Testing

/// The test tiers are targets: a unit target (every one not named `*IntegrationTests` or
/// `SystemTests`) depends on its module and the pure kit, never on the cluster kit, so the fast tier
/// (`bash .ci/fast`) cannot start Postgres, a process or a server.
@Suite(.timeLimit(.minutes(5))) struct TestLayoutTests {
    static let manifest = Result { try OpsFiles.text("Package.swift") }

    @Test func everyTestFolderIsOneTargetOfTheTierItsNameSays() throws {
        let targets = TestTargets.declared(in: try Self.manifest.get())
        let folders = try FileManager.default.contentsOfDirectory(atPath: Repository.url("Tests").path)
            .filter { !["Fixtures", "conformance"].contains($0) && !$0.hasPrefix(".") }
        #expect(Set(targets.map(\.name)) == Set(folders), "Package.swift and Tests/ disagree")
        for target in targets {
            #expect(target.isUnit == TestTargets.isUnitName(target.name),
                    "\(target.name) is declared with \(target.isUnit ? "unitTests" : "integrationTests")")
        }
        #expect(targets.filter(\.isUnit).count >= 15)
    }

    @Test func unitTargetsReachNeitherTheClusterKitNorWhatItStarts() throws {
        let targets = TestTargets.declared(in: try Self.manifest.get())
        for target in targets where target.isUnit {
            #expect(!target.declaration.contains("AlfredTestCluster"), "\(target.name) depends on the cluster kit")
            for file in try OpsFiles.files(in: "Tests/\(target.name)", suffix: ".swift") {
                #expect(TestTargets.clusterUses(in: try OpsFiles.text(file)).isEmpty, "\(file) uses the cluster kit")
            }
        }
    }

    /// The control: the checks see a cluster import, a cluster helper and a mislabelled target.
    @Test func theChecksCatchWhatTheyLookFor() {
        // Spelled in pieces, so this file does not trip its own check.
        #expect(TestTargets.clusterUses(in: "import " + "AlfredTestCluster\n") == [TestTargets.clusterImport])
        #expect(TestTargets.clusterUses(in: "let url = try await TestDatabase" + ".fresh()\n") == ["TestDatabase"])
        #expect(TestTargets.clusterUses(in: "import AlfredTestKit\nlet clock = ManualClock()\n").isEmpty)
        let declared = TestTargets.declared(in: """
            unitTests("FooTests", ["Foo", "AlfredTestCluster"]),
            integrationTests("BarIntegrationTests", ["Bar"]),
            """)
        #expect(declared.map(\.name) == ["FooTests", "BarIntegrationTests"])
        #expect(declared[0].isUnit && declared[0].declaration.contains("AlfredTestCluster"))
        #expect(!TestTargets.isUnitName("SystemTests") && TestTargets.isUnitName("FooTests"))
    }
}

enum TestTargets {
    struct Target {
        let name: String
        let isUnit: Bool
        /// The call's text, dependencies included.
        let declaration: String
    }

    static func isUnitName(_ name: String) -> Bool { !name.hasSuffix("IntegrationTests") && name != "SystemTests" }

    /// `unitTests("X", [...])` and `integrationTests("X", [...])` calls, in order; each call's text
    /// runs to the next call (or the end of the line block it is in).
    static func declared(in manifest: String) -> [Target] {
        var starts: [(String.Index, Bool)] = []
        for (marker, isUnit) in [("unitTests(\"", true), ("integrationTests(\"", false)] {
            var from = manifest.startIndex
            while let found = manifest.range(of: marker, range: from..<manifest.endIndex) {
                if !manifest[..<found.lowerBound].hasSuffix("func ") { starts.append((found.lowerBound, isUnit)) }
                from = found.upperBound
            }
        }
        starts.sort { $0.0 < $1.0 }
        return starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1].0 : (manifest.range(of: "\n\n", range: start.0..<manifest.endIndex)?.lowerBound
                ?? manifest.endIndex)
            let text = String(manifest[start.0..<end])
            let name = text.split(separator: "\"")[1]
            return Target(name: String(name), isUnit: start.1, declaration: text)
        }
    }

    /// What in a source file reaches the cluster kit: its import, or its Postgres, process and server helpers.
    static let clusterImport = "import " + "AlfredTestCluster"

    static func clusterUses(in source: String) -> [String] {
        var uses: [String] = []
        if source.contains(clusterImport) { uses.append(clusterImport) }
        for helper in ["TestDatabase", "EmbeddedPostgres", "ChildProcess", "withRunningServices", "Prerequisites"]
        where source.contains(helper + ".") || source.contains(helper + "(") {
            uses.append(helper)
        }
        return uses
    }
}
