import AlfredTestCluster
import Attestation
import Attestor
import Foundation
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The attestor's read deadline is for sending the request, never for measuring and signing: a
/// caller whose executable takes long to hash (CI's 227 MB test binary under load) still gets its
/// answer. The measurement is held open by making the caller's `/proc/<pid>/exe` (a made-up `/proc`)
/// a FIFO that the test writes only once the deadline has certainly passed.
@Suite(.timeLimit(.minutes(2))) struct AttestorDeadlineTests {
    @Test func aMeasurementThatOutlastsTheReadDeadlineIsStillAnswered() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attestor-deadline-\(UUID().uuidString.prefix(8))")
        let proc = folder.appendingPathComponent("proc/\(getpid())")
        try FileManager.default.createDirectory(at: proc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // This process as the made-up /proc shows it; its executable is a FIFO nothing writes yet.
        let real = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
        try Data(real.utf8).write(to: proc.appendingPathComponent("stat"))
        try Data("Name:\tcaller\nTracerPid:\t0\n".utf8).write(to: proc.appendingPathComponent("status"))
        try Data("PATH=/usr/bin\u{0}".utf8).write(to: proc.appendingPathComponent("environ"))
        try FileManager.default.createDirectory(at: proc.appendingPathComponent("ns"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: proc.appendingPathComponent("ns/user").path,
                                                   withDestinationPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/user"))
        let exe = proc.appendingPathComponent("exe").path
        #expect(mkfifo(exe, 0o600) == 0)

        let socket = folder.appendingPathComponent("a.sock").path
        var configuration = AttestorServer.Configuration(socketPath: socket, allowedUIDs: [getuid()])
        // Long enough for the caller's request and challenge answer on a loaded 2-core machine (at
        // 1 s the suite's parallel load once kept the caller from writing in time, and the attestor
        // closed the connection as its deadline says); still short next to the suite's limit.
        configuration.readTimeout = .seconds(5)
        let server = AttestorServer(configuration: configuration, authority: try LocalAttestation.Authority.create(),
                                    measurer: ProcessMeasurer(procRoot: folder.appendingPathComponent("proc").path),
                                    logger: Logger(label: "attestor-deadline-test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { group.cancelAll() }
            #expect(try await eventually { FileManager.default.fileExists(atPath: socket) })
            let asked = Task { try await AttestorClient(socketPath: socket).evidence(nonce: [7]) }

            // The request is in and the attestor is measuring: it has the FIFO open for reading.
            var writer: Int32 = -1
            #expect(try await eventually { writer = open(exe, O_WRONLY | O_NONBLOCK); return writer >= 0 })
            // A silent connection opened after that one is closed by its own deadline: by then the
            // first connection's deadline has passed too (the event that proves it, not a sleep).
            let silent = try await run("/usr/bin/python3", ["-c", """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1])
                print('closed' if s.recv(1) == b'' else 'data')
                """, socket])
            #expect(silent.output.contains("closed"), "\(silent.output)")

            // Now the measurement ends; the caller gets an answer, not a closed connection.
            _ = write(writer, "the caller's bytes", 18)
            close(writer)
            do {
                _ = try await asked.value
            } catch let error as AttestorError {
                #expect(!error.message.contains("closed the connection without answering"), "\(error)")
            }
        }
    }
}
