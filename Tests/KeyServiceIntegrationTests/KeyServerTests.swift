import AlfredTestCluster
import Crypto
import Foundation
import Testing
import AlfredCore
@testable import Attestation
@testable import KeyService
@testable import KeyServiceClient

/// The key service over its real socket, with the real client: it releases a data key only when
/// every rule passes, and only encrypted to the key in the evidence.
@Suite(.timeLimit(.minutes(5))) struct KeyServerTests {
    @Test func generatesADataKeyForTheBrokerAndDecryptsItAgain() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        try await fixture.withServer { client in
            let connector = UUID(), user = UUID()
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                             attestation: try await fixture.freshEvidence(client))
            #expect(generated.keyVersion == 1)
            let dataKey = try fixture.open(generated.ciphertextForRecipient)
            #expect(dataKey.count == 32)
            #expect(!generated.wrapped.contains(bytes: dataKey))

            let context = TokenContext(connectorID: connector, userID: user, keyID: "kek-main", keyVersion: 1)
            let again = try await client.decrypt(wrapped: generated.wrapped, context: context,
                                                 attestation: try await fixture.freshEvidence(client))
            #expect(try fixture.open(again) == dataKey)
            #expect(throws: (any Error).self, "only the evidence's key opens it") {
                _ = try RecipientCipher.open(again, with: P384.KeyAgreement.PrivateKey())
            }
        }
    }

    /// Each rule of RFC §10.2, broken on its own, with the code it must be denied with.
    enum BrokenRule: String, CaseIterable, Sendable {
        case wrongRuntime, measurementNotAllowed, unknownRoot, badSignature, staleTimestamp, futureTimestamp
        case replayedNonce, unknownNonce, expiredNonce, missingNonce, missingPublicKey, keyVersionNotAllowed, unknownKeyID

        var code: String {
            switch self {
            case .wrongRuntime: "wrong_runtime"
            case .measurementNotAllowed: "measurement_not_allowed"
            case .unknownRoot: "untrusted_root"
            case .badSignature: "invalid_signature"
            case .staleTimestamp: "stale_timestamp"
            case .futureTimestamp: "future_timestamp"
            case .replayedNonce, .unknownNonce, .expiredNonce: "nonce_unknown_or_replayed"
            case .missingNonce: "nonce_missing"
            case .missingPublicKey: "public_key_missing"
            case .keyVersionNotAllowed, .unknownKeyID: "key_policy_mismatch"
            }
        }
    }

    @Test(arguments: BrokenRule.allCases)
    func eachRuleDeniesOnItsOwn(rule: BrokenRule) async throws {
        let fixture = try KeyServerFixture(editPolicy: { policy in
            if rule == .wrongRuntime { policy.attestation.runtime = "aws-nitro" }
            // Local leaves are valid from 5 s before the document, so only a tight window shows this rule
            // (further ahead, the certificate itself is not yet valid).
            if rule == .futureTimestamp { policy.attestation.maxFutureSeconds = 0 }
        })
        defer { fixture.remove() }
        let clock = fixture.clock
        try await fixture.withServer { client in
            let connector = UUID(), user = UUID()
            var keyID = "kek-main"
            var version = 1
            let evidence: [UInt8]
            switch rule {
            case .wrongRuntime, .keyVersionNotAllowed:
                evidence = try await fixture.freshEvidence(client)
            case .measurementNotAllowed:
                let other = fixture.folder.appendingPathComponent("other-broker")
                try Data("a different build".utf8).write(to: other)
                evidence = try fixture.evidence(nonce: try await client.nonce(), executable: other)
            case .unknownRoot:
                evidence = try fixture.evidence(nonce: try await client.nonce(), authority: try LocalAttestation.Authority.create())
            case .badSignature:
                var bytes = try await fixture.freshEvidence(client)
                bytes[bytes.count - 1] ^= 0x01  // the last byte of the COSE signature
                evidence = bytes
            case .staleTimestamp:
                evidence = try fixture.evidence(nonce: try await client.nonce(), now: clock.date.addingTimeInterval(-600))
            case .futureTimestamp:
                evidence = try fixture.evidence(nonce: try await client.nonce(), now: clock.date.addingTimeInterval(3))
            case .replayedNonce:
                evidence = try await fixture.freshEvidence(client)
                _ = try await client.generateDataKey(keyID: keyID, connectorID: connector, userID: user, attestation: evidence)
            case .unknownNonce:
                evidence = try fixture.evidence(nonce: (0..<32).map { _ in UInt8.random(in: 0...255) })
            case .expiredNonce:
                let nonce = try await client.nonce()
                clock.advance(by: .seconds(61))
                evidence = try fixture.evidence(nonce: nonce)
            case .missingNonce:
                evidence = try fixture.evidence(nonce: nil)
            case .missingPublicKey:
                evidence = try fixture.evidence(nonce: try await client.nonce(), withPublicKey: false)
            case .unknownKeyID:
                evidence = try await fixture.freshEvidence(client)
                keyID = "kek-other"
            }
            if rule == .keyVersionNotAllowed { version = 2 }

            let denial = await #expect(throws: KeyServiceDenied.self) {
                if rule == .keyVersionNotAllowed {
                    let wrapped = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                                   attestation: try await fixture.freshEvidence(client)).wrapped
                    _ = try await client.decrypt(wrapped: wrapped, context: .init(connectorID: connector, userID: user, keyID: keyID, keyVersion: version),
                                                 attestation: evidence)
                } else {
                    _ = try await client.generateDataKey(keyID: keyID, connectorID: connector, userID: user, attestation: evidence)
                }
            }
            #expect(denial?.reason == rule.code, "\(rule): \(denial?.message ?? "")")

            // With that one rule repaired, the same server permits.
            if rule != .wrongRuntime {
                let permitted = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                                 attestation: try fixture.evidence(nonce: try await client.nonce()))
                #expect(permitted.keyVersion == 1)
            }
            let denials = try fixture.auditRecords().filter { $0["decision"] as? String == "deny" }
            #expect(denials.map { $0["reason"] as? String } == [rule.code])
        }
    }

    @Test func rewrapAfterRotationMovesTheDataKeyToTheNewVersion() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        try await fixture.withServer { client in
            let connector = UUID(), user = UUID()
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                             attestation: try await fixture.freshEvidence(client))
            let dataKey = try fixture.open(generated.ciphertextForRecipient)
            let v1 = TokenContext(connectorID: connector, userID: user, keyID: "kek-main", keyVersion: 1)

            // `alfred-key-service rotate` while the service runs: it picks up the new policy by itself.
            #expect(try fixture.directory.rotate(keyID: "kek-main") == 2)
            let policy = try KeyPolicy.load(from: fixture.directory.policy)
            #expect(policy.keys["kek-main"] == .init(active: 2, allowed: [1, 2]))

            let (rewrapped, version) = try await client.rewrap(wrapped: generated.wrapped, context: v1,
                                                               attestation: try await fixture.freshEvidence(client))
            #expect(version == 2)
            #expect(rewrapped != generated.wrapped)
            let viaV2 = try await client.decrypt(wrapped: rewrapped, context: v1.with(keyVersion: 2),
                                                 attestation: try await fixture.freshEvidence(client))
            #expect(try fixture.open(viaV2) == dataKey)
            let viaV1 = try await client.decrypt(wrapped: generated.wrapped, context: v1,
                                                 attestation: try await fixture.freshEvidence(client))
            #expect(try fixture.open(viaV1) == dataKey, "v1 stays allowed until every connector is rewrapped")
            let fresh = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                         attestation: try await fixture.freshEvidence(client))
            #expect(fresh.keyVersion == 2)
        }
    }

    @Test func aTamperedWrappedKeyOrAChangedContextIsInvalidCiphertext() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        try await fixture.withServer { client in
            let connector = UUID(), user = UUID()
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                             attestation: try await fixture.freshEvidence(client))
            let context = TokenContext(connectorID: connector, userID: user, keyID: "kek-main", keyVersion: 1)
            var tampered = generated.wrapped
            tampered[tampered.count / 2] ^= 0x01
            let cases: [([UInt8], TokenContext)] = [
                (tampered, context),
                (generated.wrapped, TokenContext(connectorID: UUID(), userID: user, keyID: "kek-main", keyVersion: 1)),
                (generated.wrapped, TokenContext(connectorID: connector, userID: UUID(), keyID: "kek-main", keyVersion: 1)),
            ]
            for (wrapped, context) in cases {
                let error = await #expect(throws: KeyServiceError.self) {
                    _ = try await client.decrypt(wrapped: wrapped, context: context, attestation: try await fixture.freshEvidence(client))
                }
                #expect(error?.code == .invalidCiphertext)
                #expect(error?.isRetryable == false)
                await #expect(throws: KeyServiceError.self) {
                    _ = try await client.rewrap(wrapped: wrapped, context: context, attestation: try await fixture.freshEvidence(client))
                }
            }
        }
    }

    @Test func everyDecisionIsAuditedWithoutKeyMaterial() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        let secrets = try await fixture.withServer { client -> [String] in
            let connector = UUID(), user = UUID()
            let firstEvidence = try await fixture.freshEvidence(client)
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user, attestation: firstEvidence)
            let context = TokenContext(connectorID: connector, userID: user, keyID: "kek-main", keyVersion: 1)
            let secondEvidence = try await fixture.freshEvidence(client)
            let forRecipient = try await client.decrypt(wrapped: generated.wrapped, context: context, attestation: secondEvidence)
            _ = try? await client.decrypt(wrapped: generated.wrapped, context: context, attestation: secondEvidence)  // replay: denied
            let dataKey = try fixture.open(generated.ciphertextForRecipient)
            return [dataKey.base64, dataKey.hex, generated.wrapped.base64, generated.wrapped.hex, generated.ciphertextForRecipient.base64,
                    forRecipient.base64, firstEvidence.base64, secondEvidence.base64, String(firstEvidence.base64.prefix(40)),
                    fixture.recipientDER.base64]
        }
        let records = try fixture.auditRecords()
        #expect(records.map { $0["operation"] as? String } == ["generate_data_key", "decrypt", "decrypt"])
        #expect(records.map { $0["decision"] as? String } == ["permit", "permit", "deny"])
        #expect(records.map { $0["reason"] as? String } == ["ok", "ok", "nonce_unknown_or_replayed"])
        let measurement = try LocalAttestation.measure(fixture.executable).hex
        for record in records {
            #expect(record["key_id"] as? String == "kek-main")
            #expect(record["key_version"] as? Int == 1)
            #expect(record["runtime"] as? String == "alfred-local")
            #expect(record["pcr0_prefix"] as? String == String(measurement.prefix(16)))
            #expect((record["connector_id"] as? String)?.count == 36)
            #expect(record["time"] is String)
            #expect(record["user_id"] == nil)
        }
        let log = try String(contentsOf: fixture.directory.auditLog, encoding: .utf8)
        for secret in secrets { #expect(!log.contains(secret)) }
        #expect(!log.contains(measurement), "only a prefix of PCR0")
        let mode = try FileManager.default.attributesOfItem(atPath: fixture.directory.auditLog.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func malformedRequestsAre400AndTheServerKeepsServing() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        try await fixture.withServer { client in
            let socket = fixture.socketPath
            let nonce = try await client.nonce()
            let good = try fixture.evidence(nonce: nonce).base64
            let bodies: [(String, String)] = [
                ("/v1/generate-data-key", "{not json"),
                ("/v1/generate-data-key", #"{"attestation": "%%%", "key_id": "kek-main", "connector_id": "\#(UUID())", "user_id": "\#(UUID())"}"#),
                ("/v1/generate-data-key", #"{"attestation": "\#(good)", "key_id": "kek-main", "connector_id": "not-a-uuid", "user_id": "\#(UUID())"}"#),
                ("/v1/generate-data-key", #"{"attestation": "\#(good)", "key_id": "../etc", "connector_id": "\#(UUID())", "user_id": "\#(UUID())"}"#),
                ("/v1/decrypt", #"{"attestation": "\#(good)", "key_id": "kek-main", "key_version": 1, "connector_id": "\#(UUID())", "user_id": "\#(UUID())", "wrapped_key": "***"}"#),
                ("/v1/rewrap", #"{"attestation": "\#(good)"}"#),
                ("/v1/decrypt", String(repeating: "x", count: 70_000)),
            ]
            for (path, body) in bodies {
                let (status, json) = try await KeyServerFixture.post(path, body: Array(body.utf8), socketPath: socket)
                #expect(status == 400, "\(path) \(body.prefix(60))")
                #expect((json["error"] as? [String: Any])?["code"] as? String == "bad_request")
            }
            // None of them used up the nonce, and the server still answers.
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: UUID(), userID: UUID(),
                                                             attestation: Array(Data(base64Encoded: good)!))
            #expect(generated.keyVersion == 1)
            let records = try fixture.auditRecords()
            #expect(records.filter { $0["reason"] as? String == "bad_request" }.count == bodies.count)
            #expect(!records.contains { ($0["key_id"] as? String)?.contains("..") == true })
        }
    }

    @Test func theSocketIsOwnerOnlyAndRemovedOnShutdown() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        let mode = try await fixture.withServer { _ in
            try FileManager.default.attributesOfItem(atPath: fixture.socketPath)[.posixPermissions] as? Int
        }
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: fixture.socketPath))
    }

    @Test func nonceResponsesAreFreshAndSayHowLongTheyLast() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        try await fixture.withServer { client in
            let (status, json) = try await KeyServerFixture.post("/v1/nonce", body: [], socketPath: fixture.socketPath)
            #expect(status == 200)
            #expect(json["expires_in_seconds"] as? Int == 60)
            #expect((json["nonce"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32)
            let first = try await client.nonce(), second = try await client.nonce()
            #expect(first != second)
        }
    }

    @Test func anUnreachableKeyServiceIsARetryableErrorNamingTheSocket() async throws {
        let path = "/tmp/alfred-ks-absent-\(UUID().uuidString.prefix(8)).sock"
        // Connecting is retried until the request's limit (a restarting service is no error): when that
        // passes with nobody listening, the caller gets the retryable error.
        let client = KeyServiceClient(socketPath: path, timeout: .milliseconds(300))
        let error = await #expect(throws: KeyServiceError.self) { _ = try await client.nonce() }
        #expect(error?.code == .unavailable)
        #expect(error?.isRetryable == true)
        #expect(error?.description.contains(path) == true)
    }

    @Test func aPolicyThatLoadsBadlyKeepsThePreviousOne() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        let logs = LogCapture()
        try await fixture.withServer(logger: logs.logger("keys")) { client in
            try PrivateFile.replace(fixture.directory.policy, contents: Data(#"{"keys": "#.utf8))
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: UUID(), userID: UUID(),
                                                             attestation: try await fixture.freshEvidence(client))
            #expect(generated.keyVersion == 1)
        }
        // The server did notice the change and tried to load it, once, before keeping the old policy.
        let refused = logs.all.filter { $0.contains("key policy change not applied; keeping the previous policy") }
        #expect(refused.count == 1, "\(logs.all)")
        #expect(!logs.all.contains { $0.contains("key policy reloaded") })
    }
}
