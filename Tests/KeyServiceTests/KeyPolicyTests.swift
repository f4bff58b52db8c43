import Foundation
import Testing
import AlfredCore
@testable import Attestation
@testable import KeyService
@testable import KeyServiceClient

@Suite(.timeLimit(.minutes(5))) struct KeyPolicyTests {
    static let pcr0 = String(repeating: "ab", count: 48)

    @Test func readsTheDocumentedFileFormat() throws {
        let json = """
            {"runtime": "alfred-local", "measurements": [{"PCR0": "\(Self.pcr0)"}],
             "max_age_seconds": 120, "max_future_seconds": 10, "require_public_key": true,
             "keys": {"kek-main": {"active": 2, "allowed": [1, 2]}}}
            """
        let policy = try JSONDecoder().decode(KeyPolicy.self, from: Data(json.utf8))
        #expect(policy.attestation == AttestationPolicy(runtime: "alfred-local", measurements: [["PCR0": Self.pcr0]],
                                                        maxAgeSeconds: 120, maxFutureSeconds: 10, requirePublicKey: true))
        #expect(policy.keys == ["kek-main": .init(active: 2, allowed: [1, 2])])
        try policy.validate()
        #expect(try JSONDecoder().decode(KeyPolicy.self, from: try policy.encoded()) == policy)
        // The same file works as `alfred attestation verify --policy`.
        #expect(try JSONDecoder().decode(AttestationPolicy.self, from: try policy.encoded()) == policy.attestation)
    }

    @Test func decidesKeyIDsAndVersions() throws {
        let policy = KeyPolicy(attestation: .init(requirePublicKey: true), keys: ["kek-main": .init(active: 2, allowed: [1, 2])])
        #expect(try policy.activeVersion(of: "kek-main") == 2)
        try policy.checkAllowed(keyID: "kek-main", version: 1)
        #expect(throws: AttestationError.self) { try policy.checkAllowed(keyID: "kek-main", version: 3) }
        #expect(throws: AttestationError.self) { try policy.checkAllowed(keyID: "kek-other", version: 1) }
        #expect(throws: AttestationError.self) { _ = try policy.activeVersion(of: "kek-other") }
    }

    @Test(arguments: [
        #"{"runtime": "alfred-local", "measurements": [], "require_public_key": false, "keys": {}}"#,
        #"{"measurements": [], "require_public_key": true, "keys": {}}"#,
        #"{"runtime": "alfred-local", "require_public_key": true, "keys": {}}"#,
        #"{"runtime": "alfred-local", "measurements": [{}], "require_public_key": true, "keys": {}}"#,
        #"{"runtime": "alfred-local", "measurements": [{"PCR0": "zz"}], "require_public_key": true, "keys": {}}"#,
        #"{"runtime": "alfred-local", "measurements": [], "require_public_key": true, "keys": {"kek": {"active": 3, "allowed": [1]}}}"#,
        #"{"runtime": "alfred-local", "measurements": [], "require_public_key": true, "keys": {"../x": {"active": 1, "allowed": [1]}}}"#,
        #"{"runtime": "alfred-local", "measurements": [], "require_public_key": true}"#,
    ])
    func refusesPoliciesThatReleaseTooWidely(json: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(json.utf8).write(to: file)
        #expect(throws: KeyConfigurationError.self) { _ = try KeyPolicy.load(from: file) }
    }
}

@Suite(.timeLimit(.minutes(5))) struct KeyDirectoryTests {
    @Test func initWritesPrivateFilesAndRefusesToOverwrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keydir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: executable) }
        try Data("broker".utf8).write(to: executable)

        let attestorFolder = folder.appendingPathComponent("attestor")
        let created = try KeyDirectory.initialize(at: folder, brokerExecutable: executable, attestorDirectory: attestorFolder)
        let directory = created.directory
        let mode = { (url: URL) in try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int }
        #expect(try mode(folder) == 0o700)
        #expect(try mode(attestorFolder) == 0o700)
        // The authority's key is the attestor's alone: never in the key service's directory.
        #expect(try mode(AttestorDirectory(attestorFolder).authorityKey) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("attestation-authority.key").path))
        _ = try AttestorDirectory(attestorFolder).loadAuthority()
        #expect(try mode(directory.keys.appendingPathComponent("kek-main.v1.key")) == 0o600)
        #expect(created.files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        let policy = try KeyPolicy.load(from: directory.policy)
        #expect(policy.attestation.runtime == "alfred-local")
        #expect(policy.attestation.measurements == [["PCR0": AttestationVerifier.hex(try LocalAttestation.measure(executable))]])
        #expect(policy.keys == ["kek-main": .init(active: 1, allowed: [1])])
        _ = try directory.loadState()

        #expect(throws: KeyConfigurationError.self) { _ = try KeyDirectory.initialize(at: folder, brokerExecutable: executable) }
        let before = try Data(contentsOf: directory.keys.appendingPathComponent("kek-main.v1.key"))
        _ = try KeyDirectory.initialize(at: folder, brokerExecutable: executable, force: true)
        #expect(try Data(contentsOf: directory.keys.appendingPathComponent("kek-main.v1.key")) != before)

        #expect(try directory.rotate(keyID: "kek-main") == 2)
        #expect(try directory.rotate(keyID: "kek-main") == 3)
        #expect(try KeyPolicy.load(from: directory.policy).keys["kek-main"] == .init(active: 3, allowed: [1, 2, 3]))
        #expect(try mode(directory.policy) == 0o600)
        #expect(throws: KeyConfigurationError.self) { _ = try directory.rotate(keyID: "kek-unknown") }
    }

    @Test func aPolicyNamingAMissingKeyFileDoesNotLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keydir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = try KeyDirectory.initialize(at: folder, brokerExecutable: URL(fileURLWithPath: "/bin/sh")).directory
        var policy = try KeyPolicy.load(from: directory.policy)
        policy.activate(keyID: "kek-main", version: 2)
        try PrivateFile.replace(directory.policy, contents: try policy.encoded())
        #expect(throws: KeyConfigurationError.self) { _ = try directory.loadState() }
    }
}

@Suite(.timeLimit(.minutes(5))) struct NonceStoreTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aNonceIsGoodOnceAndOnlyBeforeItExpires() {
        let store = NonceStore(lifetime: 60, capacity: 10)
        let nonce = store.issue(now: start)
        #expect(nonce.count == 32)
        #expect(store.consume(nonce, now: start.addingTimeInterval(59)))
        #expect(!store.consume(nonce, now: start.addingTimeInterval(59)), "one-time")
        let late = store.issue(now: start)
        #expect(!store.consume(late, now: start.addingTimeInterval(60)), "expired")
        #expect(!store.consume(Array(repeating: 0, count: 32), now: start), "never issued")
    }

    @Test func theStoreIsBoundedAndForgetsTheOldestFirst() {
        let store = NonceStore(lifetime: 60, capacity: 3)
        let nonces = (0..<5).map { store.issue(now: start.addingTimeInterval(Double($0))) }
        #expect(store.outstanding == 3)
        #expect(!store.consume(nonces[0], now: start.addingTimeInterval(5)))
        #expect(!store.consume(nonces[1], now: start.addingTimeInterval(5)))
        #expect(nonces[2...].allSatisfy { store.consume($0, now: start.addingTimeInterval(5)) })
    }

    @Test func expiredAndUsedNoncesDoNotAccumulate() {
        let store = NonceStore(lifetime: 60, capacity: 10_000)
        for second in 0..<5_000 {
            let now = start.addingTimeInterval(Double(second))
            let nonce = store.issue(now: now)
            if second.isMultiple(of: 2) { #expect(store.consume(nonce, now: now)) }
        }
        #expect(store.outstanding <= 60)
    }
}
