import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A child process started with `posix_spawn`, its output sent to a file. Foundation's `Process`
/// is avoided on purpose: it waits on a descriptor that a daemonizing grandchild (the postmaster)
/// inherits, and then never sees the exit.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let outputPath: String
    /// A caller-named output file is left in place at the end; a temporary one is removed.
    private let keepsOutput: Bool
    private let status = Mutex<Int32?>(nil)

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: URL? = nil, outputPath: String? = nil) throws {
        keepsOutput = outputPath != nil
        let outputPath = outputPath ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("alfred-child-\(UUID().uuidString).log").path
        self.outputPath = outputPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else is inherited. SwiftNIO opens its sockets without close-on-exec, so without this
        // a child keeps copies of every socket this process has open: a connection this process
        // closes then stays open at the peer for as long as the child lives (a peer waiting for EOF
        // hangs; a request written to it is never answered), and a Postgres started late in a busy
        // process refuses to start ("insufficient file descriptors").
        try Self.closeInheritedDescriptors(&actions)
        // Glibc's module does not export posix_spawn_file_actions_addchdir_np; coreutils' env changes directory.
        let command = directory.map { ["/usr/bin/env", "-C", $0.path, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw EmbeddedPostgresError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; Swift's Glibc module does not export
    /// it), which closes every descriptor from 3 up in the child, atomically with the spawn.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
            throw EmbeddedPostgresError("this C library lacks posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or newer is needed)")
        }
        let result = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        guard result == 0 else {
            throw EmbeddedPostgresError("posix_spawn_file_actions_addclosefrom_np failed: \(String(cString: strerror(result)))")
        }
    }

    /// Everything the child wrote so far (stdout and stderr interleaved).
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// The exit code, or nil while running. A death by signal is reported as 128 + signal.
    public func poll() -> Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            guard result == pid else { return nil }
            let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            status = code
            return code
        }
    }

    /// Blocks the calling thread until exit; returns the exit code. Only for tools that cannot depend
    /// on work in this process (initdb, pg_ctl): a blocked thread is one fewer for the cooperative pool,
    /// which has as many threads as cores. From async code use `exitCode()`.
    @discardableResult
    public func waitForExit() -> Int32 {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            status = code
            return code
        }
    }

    /// Waits for exit without blocking a thread (polls), and returns the exit code. A child may be
    /// waiting on something this process must do first (a lock held by an in-process transaction), so
    /// async code must never block a cooperative thread on it.
    public func exitCode() async -> Int32 {
        while true {
            if let code = poll() { return code }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits up to `timeout` (polling, without blocking a thread), then kills the child.
    public func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let code = poll() { return code }
            try? await Task.sleep(for: .milliseconds(20))
        }
        signal(SIGKILL)
        _ = await exitCode()
        return nil
    }

    /// Sends `signal` (SIGTERM; SIGINT for Ctrl-C) and waits for the exit without blocking a thread;
    /// SIGKILL after `grace`. Returns the exit code, or nil if the child had to be killed.
    @discardableResult
    public func terminate(with signal: Int32 = SIGTERM, grace: Duration = .seconds(30)) async -> Int32? {
        if let code = poll() { return code }
        self.signal(signal)
        return await waitForExit(timeout: grace)
    }

    deinit {
        if poll() == nil {
            // Killed, and reaped on a thread of its own: a deinit may run on a cooperative thread,
            // which must not block even for the moment a killed process takes to go.
            kill(pid, SIGKILL)
            let pid = self.pid
            Thread.detachNewThread {
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            }
        }
        if !keepsOutput { unlink(outputPath) }
    }
}

import Synchronization

/// Runs a command to completion without blocking a cooperative thread; returns (exit code, output).
public func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: URL? = nil) async throws -> (code: Int32, output: String) {
    let child = try ChildProcess(executable, arguments, environment: environment, directory: directory)
    let code = await child.exitCode()
    return (code, child.output)
}

/// Runs a command to completion, blocking the thread (see `ChildProcess.waitForExit()`).
public func runToCompletion(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            directory: URL? = nil) throws -> (code: Int32, output: String) {
    let child = try ChildProcess(executable, arguments, environment: environment, directory: directory)
    let code = child.waitForExit()
    return (code, child.output)
}

/// The executables `swift build`/`swift test` built beside the test bundle: `alfred`, `alfred-broker`,
/// `alfred-key-service`, `alfred-attestor`, `alfred-dev`.
public enum AlfredBinary {
    public static var path: String { get throws { try named("alfred") } }
    public static var broker: String { get throws { try named("alfred-broker") } }
    public static var keyService: String { get throws { try named("alfred-key-service") } }
    public static var attestor: String { get throws { try named("alfred-attestor") } }
    public static var dev: String { get throws { try named("alfred-dev") } }

    public static func named(_ name: String) throws -> String {
        // Beside the running executable (alfred-dev, alfred-bench), or beside the test bundle
        // (`.build/<triple>/debug/alfredPackageTests.xctest`).
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        for start in [running, CommandLine.arguments[0]] {
            var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
            for _ in 0..<3 {
                let candidate = directory.appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)").path
        if FileManager.default.isExecutableFile(atPath: fallback) { return fallback }
        throw EmbeddedPostgresError("the \(name) executable was not built; run `swift build` first")
    }
}
