import AlfredCore
import ArgumentParser
import Foundation
import Attestation

struct AttestationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation",
        abstract: "Inspect attestation evidence the way the key service does.",
        subcommands: [Verify.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify one attestation document; print the decision and reason as JSON (exit 0 only when permitted).")

        @Argument(help: "The attestation document (raw COSE_Sign1 CBOR bytes).") var file: String
        @Option(help: "PEM file of the pinned attestation root (AWS_NitroEnclaves_Root-G1, or the local root).") var root: String
        @Option(help: "Verify as of this time (ISO 8601, e.g. 2024-07-31T20:18:27.047Z); default now.") var at: String?
        @Option(help: "Key policy JSON: runtime, measurements, max_age_seconds, max_future_seconds.") var policy: String?
        @Option(help: "Expected nonce (hex): the evidence must carry exactly this nonce.") var nonce: String?

        func run() throws {
            let when: Date
            if let at {
                guard let parsed = Self.parseDate(at) else { throw ValidationError("--at must be ISO 8601, e.g. 2024-07-31T20:18:27Z") }
                when = parsed
            } else {
                when = Date()
            }
            let bytes: [UInt8]
            do { bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file))) } catch {
                throw ValidationError("cannot read \(file)")
            }
            let rootPEM: String
            do { rootPEM = try String(contentsOfFile: root, encoding: .utf8) } catch { throw ValidationError("cannot read \(root)") }
            var rules = AttestationPolicy()
            if let policy {
                do {
                    rules = try JSONDecoder().decode(AttestationPolicy.self, from: Data(contentsOf: URL(fileURLWithPath: policy)))
                } catch {
                    throw ValidationError("policy \(policy) is not a valid key policy JSON object: \(error)")
                }
            }
            var expectedNonce: [UInt8]?
            if let nonce {
                guard let decoded = Hex.decode(nonce) else { throw ValidationError("--nonce must be hex") }
                expectedNonce = decoded
            }

            var report: [String: Any] = ["file": (file as NSString).lastPathComponent, "verified_at": when.formatted(.iso8601)]
            let permitted: Bool
            do {
                let verifier = try AttestationVerifier(rootPEM: rootPEM)
                let verified = try verifier.verify(bytes, policy: rules, at: when,
                                                   nonce: expectedNonce.map { expected in { $0 == expected } })
                permitted = true
                report["decision"] = "permit"
                report["reason"] = "ok"
                report["runtime"] = verified.runtime
                report["module_id"] = verified.document.moduleID
                report["timestamp"] = verified.document.timestamp.formatted(.iso8601.time(includingFractionalSeconds: true).year().month().day())
                report["pcr0"] = verified.document.pcrs[0].map(AttestationVerifier.hex) ?? NSNull()
            } catch let error as AttestationError {
                permitted = false
                report["decision"] = "deny"
                report["reason"] = error.reason.rawValue
                report["detail"] = error.detail
            }
            let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
            print(String(decoding: json, as: UTF8.self))
            if !permitted { throw ExitCode(1) }
        }

        static func parseDate(_ string: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: string) { return date }
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.date(from: string)
        }
    }
}
