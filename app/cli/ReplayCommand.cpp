// aile replay (docs/replay.md): what a key's last days would have cost and where they would have
// failed with an edited route or routing settings, beside what really happened.
#include "ReplayCommand.h"

#include "ManagementCall.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QDateTime>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>

namespace Aile::Cli {
namespace {

QString usd(double v)
{
    return QStringLiteral("$%1").arg(v, 0, 'f', 4);
}

QString change(double actual, double projected)
{
    if (actual <= 0)
        return {};
    return QStringLiteral(" (%1%2%)").arg(projected >= actual ? QStringLiteral("+") : QString()).arg((projected - actual) / actual * 100, 0, 'f', 1);
}

QString outcome(const QJsonObject &o)
{
    const int status = o.value(QLatin1String("status")).toInt();
    if (status >= 200 && status < 300)
        return QStringLiteral("%1 via %2, %3")
            .arg(o.value(QLatin1String("target")).toString(), o.value(QLatin1String("sharer")).toString(),
                 usd(o.value(QLatin1String("costUsd")).toDouble()));
    const QString code = o.value(QLatin1String("code")).toString();
    return QStringLiteral("refused, HTTP %1%2").arg(status).arg(code.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(code));
}

QString daysOf(const QJsonObject &hits)
{
    QStringList parts;
    const QJsonObject days = hits.value(QLatin1String("days")).toObject();
    for (auto it = days.begin(); it != days.end(); ++it)
        parts << QStringLiteral("%1: %2").arg(it.key()).arg(it.value().toInt());
    return parts.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(parts.join(QStringLiteral(", ")));
}

void printCounts(QTextStream &out, const char *title, const QJsonObject &counts)
{
    out << '\n' << QStringLiteral("%1%2%3\n").arg(QLatin1String(title), -40).arg(QStringLiteral("actual"), 10).arg(QStringLiteral("projected"), 11);
    for (auto it = counts.begin(); it != counts.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        out << QStringLiteral("%1%2%3\n")
                   .arg(it.key(), -40)
                   .arg(c.value(QLatin1String("actual")).toInt(), 10)
                   .arg(c.value(QLatin1String("projected")).toInt(), 11);
    }
}

void printReport(QTextStream &out, const QJsonObject &r)
{
    const QJsonObject key = r.value(QLatin1String("key")).toObject();
    const QJsonObject requests = r.value(QLatin1String("requests")).toObject();
    const QString scope = r.value(QLatin1String("scope")).toString();
    out << "replay of key " << key.value(QLatin1String("name")).toString() << " (" << key.value(QLatin1String("id")).toString() << "), last "
        << r.value(QLatin1String("days")).toInt() << " days";
    if (!r.value(QLatin1String("route")).toString().isEmpty())
        out << ", through route " << r.value(QLatin1String("route")).toString()
            << (scope == QLatin1String("route") ? " (the requests that asked for it)" : " (every request of the key)");
    const QStringList edits = r.value(QLatin1String("edits")).toVariant().toStringList();
    out << (edits.isEmpty() ? QStringLiteral(", as saved") : QStringLiteral(", edited: %1").arg(edits.join(QStringLiteral(", ")))) << '\n';
    out << requests.value(QLatin1String("replayed")).toInt() << " requests replayed";
    if (const int skipped = requests.value(QLatin1String("skipped")).toInt())
        out << ", " << skipped << " refused before routing left out";
    out << "\n\n";
    const QJsonObject actual = r.value(QLatin1String("actual")).toObject(), projected = r.value(QLatin1String("projected")).toObject();
    out << QStringLiteral("%1%2%3\n").arg(QString(), -12).arg(QStringLiteral("actual"), 12).arg(QStringLiteral("projected"), 12);
    out << QStringLiteral("%1%2%3%4\n")
               .arg(QStringLiteral("cost"), -12)
               .arg(usd(actual.value(QLatin1String("costUsd")).toDouble()), 12)
               .arg(usd(projected.value(QLatin1String("costUsd")).toDouble()), 12)
               .arg(change(actual.value(QLatin1String("costUsd")).toDouble(), projected.value(QLatin1String("costUsd")).toDouble()));
    out << QStringLiteral("%1%2%3\n")
               .arg(QStringLiteral("served"), -12)
               .arg(actual.value(QLatin1String("served")).toInt(), 12)
               .arg(projected.value(QLatin1String("served")).toInt(), 12);
    out << '\n'
        << QStringLiteral("%1%2%3%4\n")
               .arg(QStringLiteral("day"), -12)
               .arg(QStringLiteral("requests"), 10)
               .arg(QStringLiteral("actual"), 12)
               .arg(QStringLiteral("projected"), 12);
    for (const QJsonValue &v : r.value(QLatin1String("perDay")).toArray()) {
        const QJsonObject d = v.toObject();
        out << QStringLiteral("%1%2%3%4\n")
                   .arg(d.value(QLatin1String("day")).toString(), -12)
                   .arg(d.value(QLatin1String("requests")).toInt(), 10)
                   .arg(usd(d.value(QLatin1String("actualUsd")).toDouble()), 12)
                   .arg(usd(d.value(QLatin1String("projectedUsd")).toDouble()), 12);
    }
    printCounts(out, "target", r.value(QLatin1String("perTarget")).toObject());
    printCounts(out, "sharer", r.value(QLatin1String("perSharer")).toObject());
    const QJsonObject budget = r.value(QLatin1String("budget")).toObject();
    const QJsonObject capRefused = r.value(QLatin1String("costCap")).toObject().value(QLatin1String("refused")).toObject();
    const QJsonObject capCapped = r.value(QLatin1String("costCap")).toObject().value(QLatin1String("capped")).toObject();
    const QJsonObject noSharer = r.value(QLatin1String("noSharer")).toObject();
    out << '\n' << "daily budget: " << budget.value(QLatin1String("requests")).toInt() << " requests would have hit one" << daysOf(budget) << '\n';
    out << "cost cap: " << capRefused.value(QLatin1String("requests")).toInt() << " refused" << daysOf(capRefused) << ", "
        << capCapped.value(QLatin1String("requests")).toInt() << " charged the cap" << daysOf(capCapped) << '\n';
    out << "no sharer: " << noSharer.value(QLatin1String("requests")).toInt() << daysOf(noSharer) << '\n';
    const QJsonArray top = r.value(QLatin1String("topChanges")).toArray();
    if (!top.isEmpty()) {
        out << '\n' << "changed most (" << r.value(QLatin1String("changed")).toInt() << " requests change):\n";
        for (const QJsonValue &v : top) {
            const QJsonObject c = v.toObject();
            out << "  " << QDateTime::fromMSecsSinceEpoch(qint64(c.value(QLatin1String("startedMs")).toDouble()), Qt::UTC).toString(Qt::ISODate)
                << "  " << c.value(QLatin1String("model")).toString() << "  " << c.value(QLatin1String("id")).toString() << '\n'
                << "    was:   " << outcome(c.value(QLatin1String("actual")).toObject()) << '\n'
                << "    would: " << outcome(c.value(QLatin1String("projected")).toObject()) << '\n';
        }
    }
    out << '\n';
    for (const QJsonValue &n : r.value(QLatin1String("notes")).toArray())
        out << "note: " << n.toString() << '\n';
    out.flush();
}

bool readObject(const QString &path, QJsonObject *object, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1 cannot be read: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        *error = QStringLiteral("%1 is not a JSON object (%2)").arg(path, parseError.errorString());
        return false;
    }
    *object = doc.object();
    return true;
}

} // namespace

int runReplay(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("What a key's recorded requests of the last days would have cost, and where they would have failed, with\n"
                       "a route or routing settings as edited, beside what really happened. Nothing is sent, charged or written.\n"
                       "  aile replay --key KEY [--route NAME | --routing FILE | --body ROUTE.json] [--days N]"));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("key"), QStringLiteral("The key whose requests are replayed (id or name)."), QStringLiteral("KEY")});
    parser.addOption({QStringLiteral("route"), QStringLiteral("Replay through this saved route."), QStringLiteral("NAME")});
    parser.addOption(
        {QStringLiteral("body"), QStringLiteral("Replay through this route as edited (a JSON file: name, targets, …)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("routing"), QStringLiteral("The key's routing settings as edited (a JSON file)."), QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("days"), QStringLiteral("How many days back, today included (1-90, default 7)."), QStringLiteral("N"), QStringLiteral("7")});
    parser.addOption({QStringLiteral("scope"),
                      QStringLiteral("With a route: 'route' (the requests that asked for it) or 'all' (every request of the key)."),
                      QStringLiteral("SCOPE")});
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    if (!parser.isSet(QStringLiteral("key"))) {
        err << "aile replay: say whose requests, e.g. aile replay --key laptop --body route.json\n";
        return 2;
    }
    if (parser.isSet(QStringLiteral("route")) && parser.isSet(QStringLiteral("body"))) {
        err << "aile replay: give --route NAME (a saved route) or --body FILE (a route as edited), not both\n";
        return 2;
    }
    bool ok = false;
    const int days = parser.value(QStringLiteral("days")).toInt(&ok);
    if (!ok) {
        err << "aile replay: --days takes a whole number of days, e.g. --days 7\n";
        return 2;
    }
    QJsonObject ask{{QStringLiteral("key"), parser.value(QStringLiteral("key"))}, {QStringLiteral("days"), days}};
    QString error;
    for (const char *option : {"body", "routing"}) {
        if (!parser.isSet(QLatin1String(option)))
            continue;
        QJsonObject o;
        if (!readObject(parser.value(QLatin1String(option)), &o, &error)) {
            err << "aile replay: " << error << Qt::endl;
            return 2;
        }
        ask.insert(qstrcmp(option, "body") == 0 ? QStringLiteral("route") : QStringLiteral("routing"), o);
    }
    if (parser.isSet(QStringLiteral("route")))
        ask.insert(QStringLiteral("route"), parser.value(QStringLiteral("route")));
    if (parser.isSet(QStringLiteral("scope")))
        ask.insert(QStringLiteral("scope"), parser.value(QStringLiteral("scope")));
    const Connection c = connectionFrom(parser);
    QByteArray body;
    if (call(c, "POST", QStringLiteral("/keys/route-replay"), {}, &body, &error, QJsonDocument(ask).toJson(QJsonDocument::Compact)) != 200) {
        err << "aile replay: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    printReport(out, QJsonDocument::fromJson(body).object());
    return 0;
}

} // namespace Aile::Cli
