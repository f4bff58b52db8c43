import AlfredTestKit
import Foundation
import Testing

/// A clone of this repository builds, tests and reads on its own: no file in it refers to, reads or
/// links into the folder of shared project material that lives beside the repository on the
/// developers' machines (fixtures from there were copied into `Tests/Fixtures/`, with their provenance).
@Suite(.timeLimit(.minutes(5))) struct StandAloneTests {
    @Test func noFileReadsOrLinksOutsideTheRepository() throws {
        let found = try OutsideReferences.scan(Repository.root)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The control: the scan finds a planted path, in text and as a symlink, so a clean result means something.
    @Test func theScanFindsAPlantedReferenceAndLink() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-standalone-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Tests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("let url = root.appendingPathComponent(\"\(OutsideReferences.sibling)/testdata/nitro\")\n".utf8)
            .write(to: folder.appendingPathComponent("Tests/Planted.swift"))
        try Data("nothing to see\n".utf8).write(to: folder.appendingPathComponent("Tests/Clean.swift"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("Tests/data").path,
                                                   withDestinationPath: "../../elsewhere")
        let found = try OutsideReferences.scan(folder)
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("Tests/Planted.swift:1") })
        #expect(found.contains { $0.hasPrefix("Tests/data") && $0.contains("links outside") })
    }
}

/// Lines that name the shared folder beside the repository, and symlinks that leave the repository.
enum OutsideReferences {
    /// Spelled in pieces, so this file does not match itself.
    static let sibling = ".." + "/" + "shared"
    static let patterns = [sibling, "shared" + "/testdata", "shared" + "/seeds", "shared" + "/specs", "shared" + "/reviews"]
    /// Build products, the package cache and git's own files are not the repository's content.
    static let skipped: Set<String> = [".git", ".build", ".swiftpm", ".alfred", ".schemathesis", ".hypothesis"]

    static func scan(_ root: URL) throws -> [String] {
        var found: [String] = []
        let manager = FileManager.default
        let rootPath = root.standardizedFileURL.path
        guard let walker = manager.enumerator(atPath: rootPath) else { return [] }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if skipped.contains(name) || name.hasPrefix(".build-") || name.hasPrefix(".build_") {
                walker.skipDescendants()
                continue
            }
            let path = rootPath + "/" + relative
            if let target = try? manager.destinationOfSymbolicLink(atPath: path) {
                let resolved = URL(fileURLWithPath: target, relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent())
                    .standardizedFileURL.path
                if !resolved.hasPrefix(rootPath + "/") { found.append("\(relative) links outside the repository (\(target))") }
                continue
            }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = manager.contents(atPath: path), !data.contains(0)
            else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where patterns.contains(where: { line.contains($0) }) {
                found.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces).prefix(160))")
            }
        }
        return found.sorted()
    }
}
