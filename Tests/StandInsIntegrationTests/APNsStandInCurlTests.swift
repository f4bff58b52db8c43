import AlfredTestCluster
import Foundation
import StandIns
import Testing
#if canImport(Glibc)
import Glibc
#endif

private typealias AH = APNsHarness

/// Proof with a client nobody here wrote: Debian's curl (OpenSSL + nghttp2) speaks HTTP/2 over TLS
/// to the stand-in, trusting only the test CA; and `alfred-dev sandbox apns` serves it as a process.
@Suite(.timeLimit(.minutes(10))) struct APNsStandInCurlTests {
    static func curl() throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(path, "curl is not on PATH: install it (apt-get install curl); these tests prove the APNs stand-in with a client we did not write")
    }

    /// A fresh directory for one test's files (CA, key), removed afterwards.
    static func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    /// The response of `curl -sS -D -`: status line, lowercased header names, body.
    struct CurlReply {
        var statusLine: String
        var headers: [String: String]
        var body: String

        init(_ output: String) {
            let lines = output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            let start = lines.firstIndex { $0.hasPrefix("HTTP/") } ?? lines.startIndex
            statusLine = start < lines.endIndex ? lines[start].trimmingCharacters(in: .whitespaces) : ""
            var headers: [String: String] = [:]
            var index = lines.index(after: min(start, lines.endIndex - 1))
            while index < lines.endIndex, !lines[index].isEmpty {
                let parts = lines[index].split(separator: ":", maxSplits: 1)
                if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
                index += 1
            }
            self.headers = headers
            body = index < lines.endIndex ? lines[(index + 1)...].joined(separator: "\n") : ""
        }
    }

    /// `curl --http2` POSTing an alert push with every APNs header.
    static func curlPush(_ curl: String, base: String, caFile: String, token: String, topic: String = AH.topic,
                         apnsID: String, verbose: Bool = false) async throws -> (code: Int32, output: String) {
        // A generous limit: a starved test machine must not fail on speed (the suite's time limit catches a hang).
        var arguments = ["--http2", "-sS", "-D", "-", "--max-time", "60", "--cacert", caFile, "-X", "POST",
                         "-H", "authorization: bearer \(token)", "-H", "apns-topic: \(topic)",
                         "-H", "apns-push-type: alert", "-H", "apns-priority: 10", "-H", "apns-expiration: 0",
                         "-H", "apns-collapse-id: rem_01HQ3X8Z9K", "-H", "apns-id: \(apnsID)",
                         "-H", "content-type: application/json", "--data-binary", AH.alertPayload,
                         "\(base)/3/device/\(AH.device)"]
        if verbose { arguments.insert("-v", at: 0) }
        return try await AlfredTestCluster.run(curl, arguments)
    }

    @Test func curlOverHTTP2PushesAndGetsApplesErrors() async throws {
        let curl = try Self.curl()
        try await Self.withTemporaryDirectory { directory in
            let caFile = directory.appendingPathComponent("ca.pem").path
            try AH.ca.get().caCertificatePEM.write(toFile: caFile, atomically: true, encoding: .utf8)
            try await AH.with { apns in
                let base = "https://127.0.0.1:\(try await apns.standIn.boundPort())"
                let apnsID = UUID().uuidString.lowercased()
                let (code, output) = try await Self.curlPush(curl, base: base, caFile: caFile, token: apns.token, apnsID: apnsID)
                #expect(code == 0, "\(output)")
                let reply = CurlReply(output)
                #expect(reply.statusLine == "HTTP/2 200", "\(output)")
                #expect(reply.headers["apns-id"] == apnsID)
                let delivery = try #require(apns.standIn.deliveries().first)
                #expect(delivery.apnsID == apnsID)
                #expect(delivery.collapseID == "rem_01HQ3X8Z9K")
                #expect(String(decoding: delivery.payload, as: UTF8.self) == AH.alertPayload)

                let (_, badOutput) = try await Self.curlPush(curl, base: base, caFile: caFile, token: apns.token,
                                                             topic: "com.other.app", apnsID: UUID().uuidString.lowercased())
                let bad = CurlReply(badOutput)
                #expect(bad.statusLine == "HTTP/2 400", "\(badOutput)")
                #expect(bad.body.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"reason":"BadTopic"}"#)
                #expect(bad.headers["apns-id"] != nil)
                #expect(apns.standIn.deliveries().count == 1)
            }
        }
    }

    @Test func curlNegotiatesH2ViaALPN() async throws {
        let curl = try Self.curl()
        try await Self.withTemporaryDirectory { directory in
            let caFile = directory.appendingPathComponent("ca.pem").path
            try AH.ca.get().caCertificatePEM.write(toFile: caFile, atomically: true, encoding: .utf8)
            try await AH.with { apns in
                let base = "https://127.0.0.1:\(try await apns.standIn.boundPort())"
                let (code, output) = try await Self.curlPush(curl, base: base, caFile: caFile, token: apns.token,
                                                             apnsID: UUID().uuidString.lowercased(), verbose: true)
                #expect(code == 0, "\(output)")
                // curl 7.88: "* ALPN: server accepted h2"; older: "* ALPN, server accepted to use h2".
                let alpn = output.split(separator: "\n").filter { $0.contains("ALPN") && $0.contains("accepted") }
                #expect(alpn.contains { $0.contains("h2") }, "\(output)")
                #expect(output.contains("< HTTP/2 200"), "\(output)")
            }
        }
    }

    @Test func resetOverHTTP1ClosesTheConnectionNotTheListener() async throws {
        let curl = try Self.curl()
        try await Self.withTemporaryDirectory { directory in
            let caFile = directory.appendingPathComponent("ca.pem").path
            try AH.ca.get().caCertificatePEM.write(toFile: caFile, atomically: true, encoding: .utf8)
            try await AH.with { apns in
                let base = "https://127.0.0.1:\(try await apns.standIn.boundPort())"
                apns.standIn.inject(.reset())
                let http1 = ["--http1.1", "-sS", "-D", "-", "--max-time", "60", "--cacert", caFile, "-X", "POST",
                             "-H", "authorization: bearer \(apns.token)", "-H", "apns-topic: \(AH.topic)",
                             "--data-binary", AH.alertPayload, "\(base)/3/device/\(AH.device)"]
                let (resetCode, resetOutput) = try await AlfredTestCluster.run(curl, http1)
                #expect(resetCode != 0, "\(resetOutput)")  // curl: empty reply / connection closed
                let (code, output) = try await AlfredTestCluster.run(curl, http1)
                #expect(code == 0 && CurlReply(output).statusLine.hasPrefix("HTTP/1.1 200"), "\(output)")
                #expect(apns.standIn.requests().map(\.status) == [0, 200])
            }
        }
    }

    @Test func sandboxAPNsCommandServesUntilSIGTERM() async throws {
        let curl = try Self.curl()
        try await Self.withTemporaryDirectory { directory in
            let keyFile = directory.appendingPathComponent("AuthKey.p8").path
            let caFile = directory.appendingPathComponent("ca.pem").path
            try AH.signingKey.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
            let alfred = try AlfredTestCluster.ChildProcess(try AlfredBinary.dev, [
                "sandbox", "apns", "--team-id", AH.teamID, "--key", "\(AH.keyID)=\(keyFile)", "--ca-out", caFile,
                "--device", AH.device, "--port", "0", "--log-level", "warning",
            ])
            var base: String?
            _ = try await eventually {
                base = alfred.output.split(separator: "\n").first { $0.hasPrefix("apns stand-in listening on ") }
                    .map { String($0.dropFirst("apns stand-in listening on ".count)) }
                return base != nil || alfred.poll() != nil
            }
            let url = try #require(base, "no listening line; output: \(alfred.output)")
            #expect(url.hasPrefix("https://127.0.0.1:"))

            let apnsID = UUID().uuidString.lowercased()
            let (code, output) = try await Self.curlPush(curl, base: url, caFile: caFile, token: try AH.jwt(issuedAt: Date()),
                                                         apnsID: apnsID)
            #expect(code == 0, "\(output)")
            #expect(CurlReply(output).statusLine == "HTTP/2 200", "\(output)")
            let (_, deliveries) = try await AlfredTestCluster.run(curl, ["-sS", "--cacert", caFile, "\(url)/_fake/deliveries"])
            #expect(deliveries.contains(#""apns_id":"\#(apnsID)""#), "\(deliveries)")

            alfred.signal(SIGTERM)
            #expect(await alfred.waitForExit(timeout: .seconds(60)) == 0, "\(alfred.output)")
        }
    }
}
