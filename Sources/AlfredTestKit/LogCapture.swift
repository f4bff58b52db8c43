import Logging
import Synchronization

/// Collects every log line (message, metadata and error) of the loggers it makes, at trace level,
/// so tests can prove what never reaches a log.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public func logger(_ label: String) -> Logger {
        var logger = Logger(label: label) { _ in CapturingHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    public var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct CapturingHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append("\(event.level) \(event.message) \(merged) \(event.error.map { String(describing: $0) } ?? "")")
        }
    }
}
