import ArgumentParser
import Testing

@testable import moneyflow

/// Every command names itself. ArgumentParser derives a missing `commandName` from the type's
/// name with `String(describing:)`, whose dynamic casts make the Swift runtime scan every
/// protocol conformance in the binary (NIO, Hummingbird, Foundation ...) once per cast: for the
/// 13 subcommands that had no name, 7 % of the CPU of `moneyflow import` of a 30-page CMB
/// statement, paid on every run of every command before any work started.
@Suite struct CommandNameTests {
    static func unnamed(_ command: any ParsableCommand.Type, path: String) -> [String] {
        let config = command.configuration
        let here = config.commandName.map { path + " " + $0 } ?? "\(path) <\(command)>"
        let own = config.commandName == nil ? [here] : []
        return own + config.subcommands.flatMap { unnamed($0, path: here) }
    }

    @Test func everyCommandHasAnExplicitName() {
        #expect(Self.unnamed(MoneyFlowCommand.self, path: "").isEmpty)
    }
}
