import AlfredCore
import Foundation
import JobQueue
import Logging

/// Moves every value sealed with the host data key onto the keyring's active key: the last step of
/// a rotation (`DataKeyring`), after which the old key can be removed from the ring. It reads each
/// sealed column and each queued job's sealed payload in pages, opens what is not on the active key
/// yet, seals it again and writes it back only if the row still holds what was read (its owner may
/// have rewritten it meanwhile, with the active key). Nothing leaves the worker.
public enum DataKeyReseal {
    public static let kind = JobKind("data-key.reseal", maxAttempts: 20)
    static let pageSize = 500

    public struct Payload: Codable, Sendable {
        /// The key everything is moved to: a worker whose ring has another active key waits.
        public var toKeyID: String
        public init(toKeyID: String) { self.toKeyID = toKeyID }
    }

    /// The job (one per target key; enqueueing it twice keeps one).
    public static func job(toKeyID: String) throws -> NewJob {
        NewJob(kind: kind, payload: try JobRegistry.encode(Payload(toKeyID: toKeyID)), uniqueKey: "data-key-reseal:\(toKeyID)")
    }

    static func purposes(_ column: SealedColumn) -> HostSealer.Purpose {
        switch column {
        case .deviceToken: .deviceToken
        case .preferences: .preferences
        case .cursor: .cursor
        case .mailAlert: .mailID
        }
    }

    /// What a run did, per column (`jobs.payload` for job payloads).
    public struct Tally: Sendable, Equatable {
        public var resealed = 0
        /// Rewritten by their owner meanwhile: already on a current key.
        public var changed = 0
        /// Sealed with a key this ring does not have, or damaged: left as they are, and logged.
        public var unopenable = 0
    }

    public struct Handler: JobHandler {
        public let kind = DataKeyReseal.kind
        let store: any SealedDataStore
        let sealer: HostSealer

        public init(store: any SealedDataStore, sealer: HostSealer) {
            self.store = store
            self.sealer = sealer
        }

        public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
            guard payload.toKeyID.lowercased() == sealer.activeKeyID else {
                throw JobError.snooze(.seconds(60), reason: "this worker's active data key is \(sealer.activeKeyID), not \(payload.toKeyID): "
                    + "roll the keyring out to every host first")
            }
            let tallies = try await reseal()
            for (column, tally) in tallies.sorted(by: { $0.key < $1.key }) {
                let metadata: Logger.Metadata = [
                    "alfred.column": "\(column)", "alfred.resealed": "\(tally.resealed)", "alfred.changed": "\(tally.changed)",
                    "alfred.unopenable": "\(tally.unopenable)",
                ]
                if tally.unopenable > 0 {
                    context.logger.warning("values sealed with a key not in this keyring were left as they are", metadata: metadata)
                } else {
                    context.logger.info("re-sealed onto the active data key", metadata: metadata)
                }
            }
            return .done
        }

        /// Every column, then queued job payloads. Public for tests and benchmarks.
        public func reseal() async throws -> [String: Tally] {
            var tallies: [String: Tally] = [:]
            for column in SealedColumn.allCases {
                var tally = Tally(), after: (key: String, subkey: String)?
                while true {
                    let cells = try await store.cells(column, notStartingWith: sealer.activeHeader, after: after, limit: pageSize)
                    for cell in cells {
                        guard let plain = try? sealer.open(cell.sealed, purpose: purposes(column), userID: cell.userID) else {
                            tally.unopenable += 1
                            continue
                        }
                        let sealed = try sealer.seal(plain, purpose: purposes(column), userID: cell.userID)
                        if try await store.replace(column, cell, with: sealed) { tally.resealed += 1 } else { tally.changed += 1 }
                    }
                    guard cells.count == pageSize, let last = cells.last else { break }
                    after = (last.key, last.subkey)
                }
                tallies[column.rawValue] = tally
            }
            tallies["jobs.payload"] = try await resealJobs()
            return tallies
        }

        private func resealJobs() async throws -> Tally {
            var tally = Tally(), after: UUID?
            while true {
                let jobs = try await store.sealedJobs(after: after, limit: pageSize)
                for job in jobs {
                    guard let box = try? JSONDecoder().decode(SealedPayload.self, from: Data(job.payload)) else {
                        tally.unopenable += 1
                        continue
                    }
                    if sealer.isCurrent(Array(box.sealed)) { continue }
                    // A push's text is sealed as a notification, every other payload as a job payload.
                    let opened = [HostSealer.Purpose.notification, .jobPayload].lazy.compactMap { purpose in
                        (try? sealer.open(Array(box.sealed), purpose: purpose, userID: job.userID)).map { (purpose, $0) }
                    }.first
                    guard let (purpose, plain) = opened else {
                        tally.unopenable += 1
                        continue
                    }
                    let resealed = Array(try JSONEncoder().encode(SealedPayload(try sealer.seal(plain, purpose: purpose, userID: job.userID))))
                    if try await store.replacePayload(of: job, with: resealed) { tally.resealed += 1 } else { tally.changed += 1 }
                }
                guard jobs.count == pageSize, let last = jobs.last else { break }
                after = last.id
            }
            return tally
        }
    }

    /// How many stored values name each key, per column (`jobs.payload` for queued jobs): what
    /// `alfred keys data-key usage` prints, and what must show no use of a key before it is removed.
    public static func usage(_ store: any SealedDataStore) async throws -> [String: [String: Int]] {
        var usage = Dictionary(uniqueKeysWithValues: try await store.usage().map { ($0.key.rawValue, $0.value) })
        var jobs: [String: Int] = [:], after: UUID?
        while true {
            let page = try await store.sealedJobs(after: after, limit: pageSize)
            for job in page {
                guard let box = try? JSONDecoder().decode(SealedPayload.self, from: Data(job.payload)) else { continue }
                jobs[HostSealer.keyID(of: Array(box.sealed)) ?? "v1", default: 0] += 1
            }
            guard page.count == pageSize, let last = page.last else { break }
            after = last.id
        }
        if !jobs.isEmpty { usage["jobs.payload"] = jobs }
        return usage
    }
}
