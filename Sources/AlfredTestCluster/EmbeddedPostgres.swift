import Foundation
import Logging
import PostgresNIO
import Store
#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster in a temp directory, run with the machine's own server binaries
/// (`initdb`, `pg_ctl`). Used by the tests, `alfred-dev` and the benchmark. As root it runs the
/// server as an unprivileged user (`postgres` if present, else `nobody`), because Postgres refuses root.
public final class EmbeddedPostgres: Sendable {
    public struct Options: Sendable {
        /// Tests turn fsync off for speed; `alfred-dev` and the benchmark keep the server defaults.
        public var durable = true
        public var maxConnections = 200
        /// More `postgresql.conf` lines (a benchmark's `shared_preload_libraries`, say).
        public var extraSettings: [String] = []
        /// The port to try first (default: a free one); if it is taken, another free one is used.
        public var preferredPort: Int?
        public init(durable: Bool = true) { self.durable = durable }
    }

    public let directory: URL
    /// Chosen once; a restart (`stopServer`, `startServer`) keeps it.
    public let port: Int
    public let superuser = "alfred"
    private let binaries: URL
    private let runAs: String?

    /// Connections may take up to a minute to open: the test suite runs on a machine it keeps busy,
    /// where forking a backend can take seconds; production's 5 s would turn that into failed tests.
    public var url: DatabaseURL {
        var url = DatabaseURL(host: "127.0.0.1", port: port, username: superuser, password: nil, database: "postgres")
        url.connectTimeout = .seconds(60)
        return url
    }

    public func url(database: String) -> DatabaseURL {
        var url = self.url
        url.database = database
        return url
    }

    /// Creates and starts a new cluster. Throws an actionable error when PostgreSQL is not installed.
    ///
    /// Async, and it never blocks a thread while `initdb` and `pg_ctl` run: the cooperative pool has
    /// as many threads as cores (two on CI), and a test process that blocks them stalls every other
    /// suite's timers, sockets and in-process servers with it.
    public init(options: Options = .init()) async throws {
        binaries = try await Self.findBinaries()
        runAs = geteuid() == 0 ? (Self.userExists("postgres") ? "postgres" : "nobody") : nil
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-pg-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else { throw EmbeddedPostgresError("cannot create a temp directory for Postgres") }
        directory = URL(fileURLWithPath: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        if let runAs {
            try await Self.run("/bin/chown", [runAs, directory.path])
        }
        let data = directory.appendingPathComponent("data").path
        try await Self.run(Self.command(binaries, runAs, directory, "initdb", [
            "-D", data, "-U", superuser, "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C",
        ]))
        // Settings go into postgresql.conf (not `pg_ctl -o`), so a restart keeps the same port and socket.
        var settings = [
            "listen_addresses = '127.0.0.1'", "unix_socket_directories = '\(directory.path)'",
            "max_connections = \(options.maxConnections)",
        ]
        if !options.durable { settings += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"] }
        settings += options.extraSettings
        let conf = URL(fileURLWithPath: data).appendingPathComponent("postgresql.conf")
        try Self.append(["\n# alfred embedded cluster"] + settings, to: conf)
        // The port was free when chosen, but something else can bind it before the server does (the
        // `alfred-dev` test's cluster, once in six full-suite runs): then the server exits with "Address
        // already in use" and the next port is tried. A later `port =` line overrides an earlier one.
        let serverLog = directory.appendingPathComponent("server.log")
        var attempt = 1
        while true {
            let candidate = try attempt == 1 ? options.preferredPort ?? Self.freePort() : Self.freePort()
            try Self.append(["port = \(candidate)"], to: conf)
            let logged = (try? Data(contentsOf: serverLog).count) ?? 0  // pg_ctl appends; read only this try's part
            do {
                try await Self.run(Self.command(binaries, runAs, directory, "pg_ctl", Self.startArguments(directory)))
                port = candidate
                break
            } catch {
                let log = String(decoding: ((try? Data(contentsOf: serverLog)) ?? Data()).dropFirst(logged), as: UTF8.self)
                guard attempt < 5, log.contains("Address already in use") else {
                    throw EmbeddedPostgresError("\(error); server log: \(log.suffix(600))")
                }
                attempt += 1
            }
        }
    }

    private static func append(_ lines: [String], to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        handle.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try handle.close()
    }

    private static func startArguments(_ directory: URL) -> [String] {
        ["-D", directory.appendingPathComponent("data").path, "-l", directory.appendingPathComponent("server.log").path,
         "-w", "-t", "60", "start"]
    }

    /// A new cluster for the duration of `body`, shut down and removed afterwards however `body`
    /// ends, without blocking a thread (for tests that restart their own Postgres).
    public static func with<T: Sendable>(options: Options = .init(), _ body: (EmbeddedPostgres) async throws -> T) async throws -> T {
        let cluster = try await EmbeddedPostgres(options: options)
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body(cluster)) } catch { outcome = .failure(error) }
        await cluster.shutdown()
        return try outcome.get()
    }

    /// Fast shutdown and removal of the directory. Blocks its thread: only for where nothing can
    /// be awaited (at exit, a signal handler's last step); async code calls `shutdown()`.
    public func stop() {
        _ = try? Self.runBlocking(command(for: "pg_ctl", stopArguments))
        keepServerLog()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `stop()` without blocking a thread.
    public func shutdown() async {
        _ = try? await Self.run(command(for: "pg_ctl", stopArguments))
        keepServerLog()
        try? FileManager.default.removeItem(at: directory)
    }

    /// With `ALFRED_KEEP_PG_LOGS=<directory>` set, the server log outlives the cluster (as
    /// `<directory>/postgres-<port>.log`), for reading what the server saw when a test failed.
    private func keepServerLog() {
        guard let keep = ProcessInfo.processInfo.environment["ALFRED_KEEP_PG_LOGS"], !keep.isEmpty else { return }
        let target = URL(fileURLWithPath: keep).appendingPathComponent("postgres-\(port).log")
        try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try? FileManager.default.copyItem(at: directory.appendingPathComponent("server.log"), to: target)
    }

    /// Stops the server (connections drop) and returns; `startServer()` brings it back on the same port.
    /// `mode`: pg_ctl's `fast` (clean shutdown) or `immediate` (no checkpoint: recovery at start, as after a crash).
    public func stopServer(mode: String = "fast") async throws {
        try await Self.run(command(for: "pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", mode, "-w", "stop"]))
    }

    public func startServer() async throws {
        try await Self.run(command(for: "pg_ctl", Self.startArguments(directory)))
    }

    private var stopArguments: [String] { ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"] }

    /// Creates a database (and returns its URL).
    public func createDatabase(_ name: String, logger: Logger) async throws -> DatabaseURL {
        let connection = try await PostgresConnection.connect(
            configuration: url.connectionConfiguration(), id: 1, logger: logger)
        do {
            _ = try await connection.query("CREATE DATABASE \(unescaped: "\"\(name)\"")", logger: logger).collect()
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        return url(database: name)
    }

    private func command(for tool: String, _ arguments: [String]) -> Command {
        Self.command(binaries, runAs, directory, tool, arguments)
    }

    /// The server tool's command line, run as the unprivileged user when we are root.
    private static func command(_ binaries: URL, _ runAs: String?, _ directory: URL, _ tool: String, _ arguments: [String]) -> Command {
        let executable = binaries.appendingPathComponent(tool).path
        if let runAs {
            return Command(executable: "/usr/sbin/runuser", arguments: ["-u", runAs, "--", executable] + arguments, directory: directory)
        }
        return Command(executable: executable, arguments: arguments, directory: directory)
    }

    struct Command {
        var executable: String
        var arguments: [String]
        var directory: URL?
    }

    /// `initdb` and `pg_ctl` (PATH, or Debian's `/usr/lib/postgresql/<version>/bin`). On a fresh
    /// Debian machine, as root, installs Debian's `postgresql` package first (`Prerequisites`; set
    /// ALFRED_NO_AUTO_INSTALL=1 to refuse), so `swift run alfred-dev` and `swift test` work there as-is.
    static func findBinaries() async throws -> URL {
        _ = try await Prerequisites.path(of: .initdb)
        guard let found = Prerequisites.postgresBinaries() else { throw PrerequisiteError(.initdb) }
        return found
    }

    static func userExists(_ name: String) -> Bool { getpwnam(name) != nil }

    /// A TCP port on 127.0.0.1 that is free now, for a server started later (a child process's).
    ///
    /// Chosen below the kernel's ephemeral range (`ip_local_port_range`, 32768–60999 by default):
    /// every outgoing connection takes its local port from that range, so a port picked there can be
    /// taken by some test's client connection before our server binds it. Falls back to a kernel-chosen
    /// port when the range leaves no room below it.
    public static func freePort() throws -> Int {
        let ephemeralStart = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32768
        if ephemeralStart > 12_000 {
            for _ in 0..<50 {
                let candidate = Int.random(in: 10_000..<ephemeralStart)
                if (try? bindable(candidate)) != nil { return candidate }
            }
        }
        return try bindable(0)
    }

    /// Binds `port` (0: any) on 127.0.0.1, releases it, and returns the port that was bound.
    private static func bindable(_ port: Int) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EmbeddedPostgresError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw EmbeddedPostgresError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) async throws {
        try await run(Command(executable: executable, arguments: arguments, directory: directory))
    }

    static func run(_ command: Command) async throws {
        let (code, output) = try await AlfredTestCluster.run(command.executable, command.arguments, directory: command.directory)
        try check(command, code: code, output: output)
    }

    static func runBlocking(_ command: Command) throws {
        let (code, output) = try runToCompletion(command.executable, command.arguments, directory: command.directory)
        try check(command, code: code, output: output)
    }

    private static func check(_ command: Command, code: Int32, output: String) throws {
        guard code == 0 else {
            throw EmbeddedPostgresError(
                "\((command.executable as NSString).lastPathComponent) \(command.arguments.last ?? "") failed (exit \(code)): \(output.suffix(800))")
        }
    }
}

public struct EmbeddedPostgresError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
