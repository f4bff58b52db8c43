import Crypto
import Foundation
import Testing
import Urgency

/// The corpus itself (Corpus/README.md): every record decodes and names a persona that exists, the
/// test files are the ones their authors wrote (a digest per file: a rule change is never made by
/// editing test mail), and each launch language has its own frozen test mail.
@Suite(.timeLimit(.minutes(5))) struct CorpusIntegrityTests {
    static let corpus = FrozenSplitTests.corpus

    static let frozen: [String: String] = [
        "test.jsonl": "f57fae4beab3addee245127a492b618b6bd1952139d9a146348c8c53f590892e",
        "test-en-2.jsonl": "92a1ca6ebaa03d0f7186ecc7ea793da3da248edc653107a03298ceaf8901a352",
        "test-it-1.jsonl": "3a9fd5f57da4abf52aa907f0c6f4bf747ba91424e3684a6e0170933e30c5bf82",
        "test-it-2.jsonl": "7430d1b76f04a79ce19aae8494d1d94ab4fa5e66b988eafe377c72ab22582fbb",
        "test-it-3.jsonl": "d7a06a562da6d7fd1ddd75debee6e016fe7a22735f416d8acbe2e2525833fa3d",
        "test-pt-1.jsonl": "b76baf2eb5da22d74da277e01ae1b38822f3bdb18c6b5f49df715f548ca8df31",
        "test-pt-2.jsonl": "48d35c55fb84c3339837459bff15f2b6954cb3786a835286b35c3de389425d0f",
        "test-pt-3.jsonl": "bfaeac947961d6d3c101a712dad9ce271160c6bc28cc37a29b5fad04bf39d6fe",
    ]

    static func records(_ file: String) throws -> [CorpusRecord] {
        let text = try String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)
        return try text.split(separator: "\n").compactMap { try CorpusRecord.decode($0) }
    }

    @Test func theFrozenTestFilesAreTheOnesTheirAuthorsWrote() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasPrefix("test") && $0.hasSuffix(".jsonl") }
        #expect(Set(files) == Set(Self.frozen.keys), "a test file was added or removed without its digest")
        for (file, digest) in Self.frozen {
            let data = try Data(contentsOf: Self.corpus.appendingPathComponent(file))
            #expect(SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() == digest, "\(file) changed")
        }
    }

    @Test func everyRecordDecodesAndItsPersonaExistsAndEveryLanguageHasTestMail() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".jsonl") }
        var testMail: [String: Int] = [:]
        var ids = Set<String>()  // persona + id: Gmail's ids are unique within one mailbox
        for file in files {
            for record in try Self.records(file) {
                let persona = try #require(record.persona, "\(file): a record without a persona")
                #expect(FileManager.default.fileExists(atPath: Self.corpus.appendingPathComponent("personas/\(persona).json").path),
                        "\(file): no persona file for \(persona)")
                #expect(ids.insert(persona + "/" + record.message.id).inserted, "\(file): message id \(record.message.id) is used twice in one mailbox")
                if file.hasPrefix("test") { testMail[record.language ?? "?", default: 0] += 1 }
            }
        }
        for language in ["en", "de", "fr", "es", "it", "pt"] {
            #expect(testMail[language, default: 0] >= 60, "\(language): \(testMail)")
        }
        #expect(testMail["it", default: 0] >= 150 && testMail["pt", default: 0] >= 150, "\(testMail)")
    }
}
