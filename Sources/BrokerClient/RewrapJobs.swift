import AlfredCore
import Foundation
import JobQueue

/// Key rotation as jobs. After `alfred-key-service rotate`, one sweep job pages through connectors still
/// wrapped under an older key version and enqueues one `connector.rewrap` job per connector; each
/// asks the broker to move that connector's data key (the worker never sees a key or a token).
public enum RewrapJobs {
    public static let sweep = JobKind("connectors.rewrap-sweep", maxAttempts: 10)
    public static let rewrap = JobKind("connector.rewrap", maxAttempts: 10)
    static let pageSize = 500

    public struct SweepPayload: Codable, Sendable {
        public var keyID: String
        public var toVersion: Int
        /// The last connector id of the previous page.
        public var after: UUID?
        public init(keyID: String, toVersion: Int, after: UUID? = nil) {
            self.keyID = keyID
            self.toVersion = toVersion
            self.after = after
        }
    }

    public struct RewrapPayload: Codable, Sendable {
        public var connectorID: UUID
        public var toVersion: Int
    }

    /// The job that starts a rotation's rewrap (idempotent per key and version).
    public static func sweepJob(keyID: String, toVersion: Int, after: UUID? = nil) throws -> NewJob {
        NewJob(kind: sweep, payload: try JobRegistry.encode(SweepPayload(keyID: keyID, toVersion: toVersion, after: after)),
               uniqueKey: "rewrap-sweep:\(keyID):v\(toVersion):\(after?.uuidString.lowercased() ?? "start")")
    }

    /// Pages through connectors needing a rewrap, one page per run, enqueueing the next page as a job.
    public struct SweepHandler: JobHandler {
        public let kind = RewrapJobs.sweep
        let connectors: any ConnectorListing
        let jobs: any JobStore

        public init(connectors: any ConnectorListing, jobs: any JobStore) {
            self.connectors = connectors
            self.jobs = jobs
        }

        public func run(_ payload: SweepPayload, context: JobContext) async throws -> JobOutcome {
            let ids = try await connectors.needingRewrap(keyID: payload.keyID, activeVersion: payload.toVersion,
                                                          after: payload.after, limit: RewrapJobs.pageSize)
            var work = try ids.map { id in
                NewJob(kind: RewrapJobs.rewrap, payload: try JobRegistry.encode(RewrapPayload(connectorID: id, toVersion: payload.toVersion)),
                       uniqueKey: "rewrap:\(id.uuidString.lowercased()):v\(payload.toVersion)")
            }
            if ids.count == RewrapJobs.pageSize, let last = ids.last {
                work.append(try RewrapJobs.sweepJob(keyID: payload.keyID, toVersion: payload.toVersion, after: last))
            }
            _ = try await jobs.enqueue(work, onConflict: .keep)
            context.logger.info("rewrap sweep page", metadata: ["alfred.connectors": "\(ids.count)", "alfred.key_version": "\(payload.toVersion)"])
            return .done
        }
    }

    /// Asks the broker to rewrap one connector.
    public struct RewrapHandler: JobHandler {
        public let kind = RewrapJobs.rewrap
        let broker: BrokerClient

        public init(broker: BrokerClient) { self.broker = broker }

        public func run(_ payload: RewrapPayload, context: JobContext) async throws -> JobOutcome {
            let version: Int
            do {
                version = try await broker.rewrap(connectorID: payload.connectorID.uuidString.lowercased())
            } catch let error as BrokerError where error.code == .notFound {
                return .done  // deleted meanwhile: nothing to rewrap
            } catch let error as BrokerError {
                // Broker down, key service busy or denying (a policy being rolled out): try again later.
                throw JobError.retry("broker \(error.code): \(error.message)")
            }
            guard version == payload.toVersion else {
                throw JobError.retry("connector is at key version \(version) after rewrap, expected \(payload.toVersion); "
                    + "is that version active in key-policy.json?")
            }
            return .done
        }
    }
}
