import Foundation
import MoneyFlowTestSupport
import Testing

/// scripts/install.sh, which puts `moneyflow` on a new user's PATH with their shell's completions.
@Suite struct InstallScriptTests {
    /// Runs `bash scripts/install.sh args...` with HOME and XDG folders in `dir` and a PATH
    /// without the install folder.
    static func install(_ args: [String], home: String) throws -> (status: Int32, out: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [TestPaths.repoRoot.path + "/scripts/install.sh"] + args
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/.config"
        env["PREFIX"] = nil
        env["PATH"] = "/usr/bin:/bin"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        // Bounded like every wait on a child (its output is a few lines: the pipe cannot fill).
        try ChildWait.process(p, what: "install.sh")
        let data = out.fileHandleForReading.readDataToEndOfFile()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// scripts/install.sh with the debug build (`--binary`; the release build it makes by
    /// default takes minutes and is checked by hand): the binary lands in PREFIX/bin and the
    /// completions of the chosen shell where that shell looks for them.
    @Test(
        "install.sh puts moneyflow in PREFIX/bin with the shell's completions",
        arguments: [
            ("bash", "share/bash-completion/completions/moneyflow", "-F _moneyflow moneyflow"),
            ("zsh", "share/zsh/site-functions/_moneyflow", "#compdef moneyflow"),
            ("fish", "share/fish/vendor_completions.d/moneyflow.fish", "complete -c 'moneyflow'"),
        ])
    func installScript(shell: String, completions: String, marker: String) throws {
        let home = try TestPaths.tempDir("install-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let prefix = home + "/opt"
        let r = try Self.install(["--binary", MoneyFlowBinary.path.path, "--prefix", prefix, "--shell", shell], home: home)
        #expect(r.status == 0, "\(r.out)")
        let installed = prefix + "/bin/moneyflow"
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        #expect(r.out.contains("installed \(installed)"))
        #expect(r.out.contains("\(prefix)/bin is not on your PATH"), "\(r.out)")
        let script = try String(contentsOfFile: prefix + "/" + completions, encoding: .utf8)
        #expect(script.contains(marker))
        #expect(script.contains("transactions") && script.contains("store"), "the completions name the subcommands and options")
        if shell == "bash" {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/bin/bash")
            check.arguments = ["-n", prefix + "/" + completions]
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0, "the bash completion script does not parse")
        }
        let version = try MoneyFlowBinary.run(["--version"])
        let again = Process()
        again.executableURL = URL(fileURLWithPath: installed)
        again.arguments = ["--version"]
        let pipe = Pipe()
        again.standardOutput = pipe
        try again.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        again.waitUntilExit()
        #expect(text == version.stdout)
    }

    @Test("install.sh without PREFIX installs into ~/.local/bin; an unknown option is a usage error")
    func installScriptDefaults() throws {
        let home = try TestPaths.tempDir("install-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let r = try Self.install(["--binary", MoneyFlowBinary.path.path, "--shell", "fish"], home: home)
        #expect(r.status == 0, "\(r.out)")
        #expect(FileManager.default.isExecutableFile(atPath: home + "/.local/bin/moneyflow"))
        // fish's own folder for a user's completions.
        #expect(FileManager.default.fileExists(atPath: home + "/.config/fish/completions/moneyflow.fish"))
        #expect(try Self.install(["--bogus"], home: home).status == 2)
    }
}
