#include "ConfigCheck.h"

#include "config/ConfigValidation.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QFile>
#include <QtCore/QTextStream>

namespace Aile::Cli {

int runConfigCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Checks a configuration file as `aile serve --config` would, without an engine and without writing anything.\n"
                       "Prints every problem as FILE:LINE:COLUMN: message; exits 0 only when the file is clean."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("data-dir"),
                      QStringLiteral("Check against what this engine's store holds (read only); without it, against an empty store."),
                      QStringLiteral("DIR")});
    parser.addPositionalArgument(QStringLiteral("check"), QStringLiteral("check"));
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("the configuration file"));
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 2) {
        err << "aile config check: say which file: aile config check FILE\n";
        return 2;
    }
    const QString path = pos.at(1);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        err << "aile config check: cannot read " << path << ": " << f.errorString() << Qt::endl;
        return 2;
    }
    Config::ConfigFile cfg = Config::ConfigFile::read(f.readAll());

    // The store the file would be applied to, read without writing; an engine may be running on it.
    QString error;
    const std::optional<Config::Baseline> baseline = Config::Baseline::ofDataDir(parser.value(QStringLiteral("data-dir")), &error);
    if (!baseline) {
        err << "aile config check: " << error << Qt::endl;
        return 2;
    }
    const Config::Problems problems = Config::validate(cfg, *baseline, Config::UnknownKey::Problem, nullptr);
    for (const QString &line : cfg.describe(problems, path))
        out << line << '\n';
    if (problems.isEmpty())
        out << path << ": no problems" << Qt::endl;
    else
        out << path << ": " << problems.size() << (problems.size() == 1 ? " problem" : " problems") << Qt::endl;
    return problems.isEmpty() ? 0 : 1;
}

} // namespace Aile::Cli
