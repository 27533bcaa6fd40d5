import Foundation
import Testing

/// The repository's root, from this file's path.
private let repositoryRoot = String(#filePath.split(separator: "/Tests/InterceptionTests/").first!)

@Suite("The package declares the Swift version it really needs")
struct PackageManifestTests {
    @Test(
        "Package.swift declares tools version 6.2 or later (SendableMetatype needs 6.2), and the README says the same"
    )
    func minimumSwiftVersion() throws {
        let manifest = try String(contentsOfFile: repositoryRoot + "/Package.swift", encoding: .utf8)
        let firstLine = try #require(manifest.split(separator: "\n").first)
        let match = try #require(firstLine.firstMatch(of: /swift-tools-version:\s*(\d+)\.(\d+)/))
        let (major, minor) = (Int(match.1)!, Int(match.2)!)
        #expect((major, minor) >= (6, 2))
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("Swift \(major).\(minor) or later"))
    }
}
