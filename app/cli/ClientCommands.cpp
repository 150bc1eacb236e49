#include "ClientCommands.h"
#include "TraceActionCommand.h"
#include "ReplayCommand.h"
#include "ConfigCheck.h"

#include "ManagementCall.h"
#include "SetupCommands.h"
#include "UsageCommand.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

namespace Aile::Cli {

namespace {

int runTraces(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Recent requests, newest first."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("limit"), QStringLiteral("How many (default 20)."), QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("Only this model."), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("key"), QStringLiteral("Only this key (name or id)."), QStringLiteral("KEY")});
    parser.process(arguments);
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), parser.value(QStringLiteral("limit")));
    if (parser.isSet(QStringLiteral("model")))
        q.addQueryItem(QStringLiteral("model"), parser.value(QStringLiteral("model")));
    if (parser.isSet(QStringLiteral("key")))
        q.addQueryItem(QStringLiteral("key"), parser.value(QStringLiteral("key")));
    QByteArray body;
    QString error;
    QTextStream out(stdout), err(stderr);
    const int status = call(connectionFrom(parser), "GET", QStringLiteral("/keys/usage/requests"), q, &body, &error);
    if (status != 200) {
        err << "aile traces: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
    out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
               .arg(QStringLiteral("time"), -19)
               .arg(QStringLiteral("status"), 6)
               .arg(QStringLiteral("model"), -32)
               .arg(QStringLiteral("sharer"), -18)
               .arg(QStringLiteral("tries"), 5)
               .arg(QStringLiteral("tokens in/out"), 14)
               .arg(QStringLiteral("cost $"));
    for (const QJsonValue &v : data) {
        const QJsonObject t = v.toObject();
        const QString when =
            QDateTime::fromMSecsSinceEpoch(qint64(t.value(QLatin1String("startedMs")).toDouble())).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        const QString served = t.value(QLatin1String("modelServed")).toString();
        out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                   .arg(when, -19)
                   .arg(t.value(QLatin1String("status")).toInt(), 6)
                   .arg(served.isEmpty() ? t.value(QLatin1String("modelAsked")).toString() : served, -32)
                   .arg(t.value(QLatin1String("sharerName")).toString(), -18)
                   .arg(t.value(QLatin1String("attempts")).toInt(), 5)
                   .arg(QStringLiteral("%1/%2")
                            .arg(qint64(t.value(QLatin1String("inputTokens")).toDouble()))
                            .arg(qint64(t.value(QLatin1String("outputTokens")).toDouble())),
                        14)
                   .arg(t.value(QLatin1String("costUsd")).toDouble(), 0, 'f', 6);
    }
    return 0;
}

int runSharers(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The sharers in routing order: the top row is where the next request goes.\n"
                                                    "  aile sharers [--model M] [filters]    list\n"
                                                    "  aile sharers add PROVIDER ...         add one (aile sharers add --help)\n"
                                                    "  aile sharers test HANDLE --model M    send one minimal request of M on that sharer\n"
                                                    "  aile sharers probe HANDLE             check that its credential answers"));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("test, probe or clear-cooldown (optional)"));
    parser.addPositionalArgument(QStringLiteral("handle"), QStringLiteral("the sharer, for test, probe and clear-cooldown"));
    parser.addOption({QStringLiteral("model"), QStringLiteral("provider/model, as a request names it."), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("provider"), QStringLiteral("Only this provider (x-aile-provider)."), QStringLiteral("PROVIDER")});
    parser.addOption({QStringLiteral("max-price"), QStringLiteral("As x-aile-max-price: $/Mtok or N%."), QStringLiteral("PRICE")});
    parser.addOption({QStringLiteral("min-price"), QStringLiteral("As x-aile-min-price: $/Mtok or N%."), QStringLiteral("PRICE")});
    parser.addOption({QStringLiteral("verified"), QStringLiteral("As x-aile-verified: 1: only sharers that passed a test of the model.")});
    parser.addOption(
        {QStringLiteral("sort"), QStringLiteral("A reading order instead of the routing order: price, name or speed."), QStringLiteral("KEY")});
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const Connection c = connectionFrom(parser);
    const QStringList pos = parser.positionalArguments();
    QByteArray body;
    QString error;
    if (!pos.isEmpty()) {
        const bool clear = pos.at(0) == QLatin1String("clear-cooldown");
        if (pos.size() < 2 || (pos.at(0) != QLatin1String("test") && pos.at(0) != QLatin1String("probe") && !clear)) {
            err << "aile sharers: say `test HANDLE --model M`, `probe HANDLE` or `clear-cooldown HANDLE`\n";
            return 2;
        }
        QByteArray payload;
        if (pos.at(0) == QLatin1String("test")) {
            if (!parser.isSet(QStringLiteral("model"))) {
                err << "aile sharers test: --model is needed\n";
                return 2;
            }
            QString model = parser.value(QStringLiteral("model"));
            if (model.contains(QLatin1Char('/')))
                model = model.section(QLatin1Char('/'), 1);
            payload = QJsonDocument(QJsonObject{{QStringLiteral("model"), model}}).toJson(QJsonDocument::Compact);
        }
        const int status = call(c, "POST", QStringLiteral("/sharers/%1/%2").arg(pos.at(1), pos.at(0)), {}, &body, &error, payload);
        const QJsonObject r = QJsonDocument::fromJson(body).object();
        if (status != 200) {
            err << "aile sharers " << pos.at(0) << ": " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        if (clear) {
            out << r.value(QLatin1String("message")).toString() << Qt::endl;
            return 0;
        }
        out << (r.value(QLatin1String("ok")).toBool() ? "passed: " : "failed: ") << r.value(QLatin1String("message")).toString() << Qt::endl;
        return r.value(QLatin1String("ok")).toBool() ? 0 : 1;
    }
    QUrlQuery q;
    for (const char *name : {"model", "provider", "max-price", "min-price", "sort"})
        if (parser.isSet(QLatin1String(name)))
            q.addQueryItem(QLatin1String(name), parser.value(QLatin1String(name)));
    if (parser.isSet(QStringLiteral("verified")))
        q.addQueryItem(QStringLiteral("verified"), QStringLiteral("1"));
    const int status = call(c, "GET", QStringLiteral("/sharers"), q, &body, &error);
    if (status != 200) {
        err << "aile sharers: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    const QJsonObject root = QJsonDocument::fromJson(body).object();
    out << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
               .arg(QStringLiteral("#"), 3)
               .arg(QStringLiteral("handle"), -17)
               .arg(QStringLiteral("name"), -20)
               .arg(QStringLiteral("$/Mtok in/out"), -16)
               .arg(QStringLiteral("tested"), -6)
               .arg(QStringLiteral("state"));
    for (const QJsonValue &v : root.value(QLatin1String("data")).toArray()) {
        const QJsonObject o = v.toObject();
        const bool available = o.value(QLatin1String("available")).toBool();
        const QString price = o.contains(QLatin1String("inputPrice")) ? QStringLiteral("%1/%2")
                                                                            .arg(o.value(QLatin1String("inputPrice")).toDouble(), 0, 'g', 4)
                                                                            .arg(o.value(QLatin1String("outputPrice")).toDouble(), 0, 'g', 4)
                                                                      : QStringLiteral("-");
        QString state = available ? (o.value(QLatin1String("deadKey")).toBool() ? QStringLiteral("dead key (last)") : QStringLiteral("available"))
                                  : QStringLiteral("unavailable: ") + o.value(QLatin1String("reason")).toString();
        if (o.value(QLatin1String("tiedWithPrevious")).toBool())
            state += QStringLiteral(" (tied)");
        out << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                   .arg(o.contains(QLatin1String("rank")) ? QString::number(o.value(QLatin1String("rank")).toInt()) : QStringLiteral("-"), 3)
                   .arg(o.value(QLatin1String("handle")).toString(), -17)
                   .arg(o.value(QLatin1String("name")).toString().left(20), -20)
                   .arg(price, -16)
                   .arg(o.value(QLatin1String("tested")).toBool() ? QStringLiteral("yes") : QStringLiteral("no"), -6)
                   .arg(state);
    }
    out << root.value(QLatin1String("footer")).toString() << Qt::endl;
    return 0;
}

int runConfig(const QStringList &arguments)
{
    if (arguments.value(1) == QLatin1String("check"))
        return runConfigCheck(arguments);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The running configuration as JSON, without secrets (the configuration file's format).\n"
                       "  aile config export [FILE]   write it (stdout without FILE)\n"
                       "  aile config import FILE     apply one: same handles, key names and providers replace what is there\n"
                       "  aile config check FILE      check one without an engine, writing nothing (see aile config check --help)"));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("export or import"));
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("the JSON file"));
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    const Connection c = connectionFrom(parser);
    QByteArray body;
    QString error;
    if (pos.value(0) == QLatin1String("export")) {
        if (call(c, "GET", QStringLiteral("/admin/config"), {}, &body, &error) != 200) {
            err << "aile config export: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        const QByteArray pretty = QJsonDocument::fromJson(body).toJson();
        if (pos.size() < 2) {
            out << pretty;
            return 0;
        }
        QFile f(pos.at(1));
        if (!f.open(QIODevice::WriteOnly) || f.write(pretty) != pretty.size()) {
            err << "aile config export: cannot write " << pos.at(1) << Qt::endl;
            return 1;
        }
        return 0;
    }
    if (pos.value(0) == QLatin1String("import") && pos.size() == 2) {
        QFile f(pos.at(1));
        if (!f.open(QIODevice::ReadOnly)) {
            err << "aile config import: cannot read " << pos.at(1) << Qt::endl;
            return 1;
        }
        if (call(c, "POST", QStringLiteral("/admin/config"), {}, &body, &error, f.readAll()) != 200) {
            err << "aile config import: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        for (const QJsonValue &n : QJsonDocument::fromJson(body).object().value(QLatin1String("notes")).toArray())
            err << "note: " << n.toString() << Qt::endl;
        out << "imported" << Qt::endl;
        return 0;
    }
    err << "aile config: say `export [FILE]`, `import FILE` or `check FILE`\n";
    return 2;
}

QString money(const QJsonValue &v)
{
    return v.isDouble() ? QString::number(v.toDouble(), 'g', 6) : QStringLiteral("?");
}

int runCatalog(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The price table: list prices in USD per million tokens, the shipped figures with your overrides.\n"
                       "  aile catalog [--provider P]                         list it (* marks an override, ~ an estimate)\n"
                       "  aile catalog set PROVIDER/MODEL --input X --output Y  override an entry (only the given fields)\n"
                       "  aile catalog reset PROVIDER/MODEL                   back to the shipped figures\n"
                       "  aile catalog import FILE                            re-import a table (the shipped JSON format)\n"
                       "  aile catalog add-provider ID --base-url URL --compatible openai|anthropic   a provider of your own"));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("provider"), QStringLiteral("Only this provider's models."), QStringLiteral("P")});
    const QList<QPair<QString, QString>> prices{{QStringLiteral("input"), QStringLiteral("input")},
                                                {QStringLiteral("output"), QStringLiteral("output")},
                                                {QStringLiteral("cache-read"), QStringLiteral("cacheRead")},
                                                {QStringLiteral("cache-write"), QStringLiteral("cacheWrite")}};
    for (const auto &p : prices)
        parser.addOption({p.first, QStringLiteral("The %1 price, USD per million tokens.").arg(p.first), QStringLiteral("USD")});
    parser.addOption({QStringLiteral("context-window"), QStringLiteral("The context window in tokens."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("base-url"), QStringLiteral("add-provider: where it answers."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("compatible"), QStringLiteral("add-provider: openai or anthropic."), QStringLiteral("API")});
    parser.addOption({QStringLiteral("name"), QStringLiteral("add-provider: a display name."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("self-hosted"), QStringLiteral("add-provider: capacity you run yourself.")});
    parser.addOption({QStringLiteral("data-collection"), QStringLiteral("add-provider: deny, allow or unknown."), QStringLiteral("POLICY")});
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("set, reset, import or add-provider (none: list)"));
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    const Connection c = connectionFrom(parser);
    const QString action = pos.value(0);
    QByteArray body;
    QString error;
    auto fail = [&](const QString &what) {
        err << "aile catalog " << what << ": " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    };
    auto modelPath = [](const QString &spec) {
        const qsizetype slash = spec.indexOf(QLatin1Char('/'));
        return QStringLiteral("/catalog/models/%1/%2")
            .arg(QString::fromLatin1(QUrl::toPercentEncoding(spec.left(slash))),
                 QString::fromLatin1(QUrl::toPercentEncoding(spec.mid(slash + 1), "/")));
    };
    if (action.isEmpty()) {
        QUrlQuery q;
        if (parser.isSet(QStringLiteral("provider")))
            q.addQueryItem(QStringLiteral("provider"), parser.value(QStringLiteral("provider")));
        if (call(c, "GET", QStringLiteral("/catalog"), q, &body, &error) != 200)
            return fail(QStringLiteral("list"));
        if (parser.isSet(QStringLiteral("json"))) {
            out << body;
            return 0;
        }
        out << QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                   .arg(QStringLiteral("MODEL"), -44)
                   .arg(QStringLiteral("INPUT"), 9)
                   .arg(QStringLiteral("OUTPUT"), 9)
                   .arg(QStringLiteral("CACHE-R"), 9)
                   .arg(QStringLiteral("CACHE-W"), 9)
                   .arg(QStringLiteral("CONTEXT"), 9)
                   .arg(QStringLiteral("SOURCE"));
        for (const QJsonValue &v : QJsonDocument::fromJson(body).object().value(QLatin1String("models")).toArray()) {
            const QJsonObject m = v.toObject();
            const QString mark = m.value(QLatin1String("overridden")).toBool()  ? QStringLiteral("*")
                                 : m.value(QLatin1String("estimated")).toBool() ? QStringLiteral("~")
                                                                                : QString();
            out << QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                       .arg(
                           QString(m.value(QLatin1String("provider")).toString() + QLatin1Char('/') + m.value(QLatin1String("id")).toString() + mark),
                           -44)
                       .arg(money(m.value(QLatin1String("input"))), 9)
                       .arg(money(m.value(QLatin1String("output"))), 9)
                       .arg(money(m.value(QLatin1String("cacheRead"))), 9)
                       .arg(money(m.value(QLatin1String("cacheWrite"))), 9)
                       .arg(qint64(m.value(QLatin1String("contextWindow")).toDouble()), 9)
                       .arg(m.value(QLatin1String("overridden")).toBool() ? QStringLiteral("your override")
                                                                          : m.value(QLatin1String("sourceDate")).toString());
        }
        out << "USD per million tokens. * your override, ~ estimated (no published figure at hand)." << Qt::endl;
        return 0;
    }
    if (action == QLatin1String("set") && pos.size() == 2 && pos.at(1).contains(QLatin1Char('/'))) {
        QJsonObject edit;
        for (const auto &p : prices) {
            if (!parser.isSet(p.first))
                continue;
            bool ok = false;
            const double v = parser.value(p.first).toDouble(&ok);
            if (!ok) {
                err << "aile catalog set: --" << p.first << " needs a number, e.g. 2.5" << Qt::endl;
                return 2;
            }
            edit.insert(p.second, v);
        }
        if (parser.isSet(QStringLiteral("context-window")))
            edit.insert(QStringLiteral("contextWindow"), parser.value(QStringLiteral("context-window")).toDouble());
        if (edit.isEmpty()) {
            err << "aile catalog set: give at least one of --input, --output, --cache-read, --cache-write, --context-window" << Qt::endl;
            return 2;
        }
        if (call(c, "PUT", modelPath(pos.at(1)), {}, &body, &error, QJsonDocument(edit).toJson(QJsonDocument::Compact)) != 200)
            return fail(QStringLiteral("set"));
        out << pos.at(1) << " overridden" << Qt::endl;
        return 0;
    }
    if (action == QLatin1String("reset") && pos.size() == 2 && pos.at(1).contains(QLatin1Char('/'))) {
        if (call(c, "DELETE", modelPath(pos.at(1)), {}, &body, &error) != 200)
            return fail(QStringLiteral("reset"));
        out << pos.at(1) << " is back to the shipped figures" << Qt::endl;
        return 0;
    }
    if (action == QLatin1String("import") && pos.size() == 2) {
        QFile f(pos.at(1));
        if (!f.open(QIODevice::ReadOnly)) {
            err << "aile catalog import: cannot read " << pos.at(1) << Qt::endl;
            return 1;
        }
        if (call(c, "POST", QStringLiteral("/catalog/import"), {}, &body, &error, f.readAll()) != 200)
            return fail(QStringLiteral("import"));
        const QJsonObject r = QJsonDocument::fromJson(body).object();
        out << "imported " << r.value(QLatin1String("models")).toInt() << " models and " << r.value(QLatin1String("providers")).toInt()
            << " providers as overrides" << Qt::endl;
        return 0;
    }
    if (action == QLatin1String("add-provider") && pos.size() == 2) {
        QJsonObject p{{QStringLiteral("baseUrl"), parser.value(QStringLiteral("base-url"))},
                      {QStringLiteral("compatible"), parser.value(QStringLiteral("compatible"))},
                      {QStringLiteral("selfHosted"), parser.isSet(QStringLiteral("self-hosted"))}};
        if (parser.isSet(QStringLiteral("name")))
            p.insert(QStringLiteral("name"), parser.value(QStringLiteral("name")));
        if (parser.isSet(QStringLiteral("data-collection")))
            p.insert(QStringLiteral("dataCollection"), parser.value(QStringLiteral("data-collection")));
        if (call(c, "PUT", QStringLiteral("/catalog/providers/") + pos.at(1), {}, &body, &error, QJsonDocument(p).toJson(QJsonDocument::Compact))
            != 200)
            return fail(QStringLiteral("add-provider"));
        out << "provider " << pos.at(1) << " added" << Qt::endl;
        return 0;
    }
    err << "aile catalog: say nothing (list), `set PROVIDER/MODEL --input X`, `reset PROVIDER/MODEL`, `import FILE` or `add-provider ID`\n";
    return 2;
}

// aile keys routes ID [--set FILE]: the key's routes with today's spend, or a new list saved.
int keyRoutes(const Connection &c, const QString &key, const QString &file, bool json)
{
    QTextStream out(stdout), err(stderr);
    const QString path = QStringLiteral("/keys/") + QString::fromLatin1(QUrl::toPercentEncoding(key));
    QByteArray body;
    QString error;
    int status = 0;
    if (!file.isEmpty()) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            err << "aile keys routes: cannot read " << file << ": " << f.errorString() << Qt::endl;
            return 1;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
        if (!doc.isArray()) {
            err << "aile keys routes: " << file << " must hold a JSON list of routes (" << parseError.errorString() << ")" << Qt::endl;
            return 1;
        }
        status = call(c, "PUT", path, {}, &body, &error,
                      QJsonDocument(QJsonObject{{QStringLiteral("routes"), doc.array()}}).toJson(QJsonDocument::Compact));
    } else {
        status = call(c, "GET", path, {}, &body, &error);
    }
    if (status != 200) {
        err << "aile keys routes: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    const QJsonObject k = QJsonDocument::fromJson(body).object().value(QLatin1String("key")).toObject();
    if (json) {
        out << QJsonDocument(k.value(QLatin1String("routes")).toArray()).toJson(QJsonDocument::Compact) << Qt::endl;
        return 0;
    }
    auto budget = [](const QJsonValue &v) { return v.isDouble() ? QStringLiteral(" of $%1").arg(v.toDouble()) : QString(); };
    const QJsonArray routes = k.value(QLatin1String("routes")).toArray();
    const QJsonArray spend = k.value(QLatin1String("routeSpend")).toArray();
    if (routes.isEmpty())
        out << "no routes on key " << k.value(QLatin1String("name")).toString() << Qt::endl;
    for (int i = 0; i < routes.size(); ++i) {
        const QJsonObject r = routes.at(i).toObject(), sp = spend.at(i).toObject();
        out << r.value(QLatin1String("name")).toString() << "  (" << r.value(QLatin1String("order")).toString(QStringLiteral("in order"));
        if (r.contains(QLatin1String("ttftMs")))
            out << ", first token within " << r.value(QLatin1String("ttftMs")).toInt() << " ms";
        out << ")  today $" << QString::number(sp.value(QLatin1String("spentUsd")).toDouble(), 'f', 6)
            << budget(sp.value(QLatin1String("budgetUsdPerDay"))) << '\n';
        const QJsonArray targets = sp.value(QLatin1String("targets")).toArray();
        for (int t = 0; t < targets.size(); ++t) {
            const QJsonObject to = targets.at(t).toObject();
            out << "  " << t + 1 << ". " << to.value(QLatin1String("model")).toString()
                << (to.contains(QLatin1String("sharer")) ? QStringLiteral(" on ") + to.value(QLatin1String("sharer")).toString() : QString())
                << "  today $" << QString::number(to.value(QLatin1String("spentUsd")).toDouble(), 'f', 6)
                << budget(to.value(QLatin1String("budgetUsdPerDay"))) << '\n';
        }
    }
    out.flush();
    return 0;
}

int runKeys(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The proxy's API keys.\n"
                       "  aile keys [list]          every key: id, name, prefix, state, spent today\n"
                       "  aile keys create NAME     a new key; its secret is printed once, here only\n"
                       "  aile keys revoke ID       revoke a key (by id or name): the proxy refuses it from now on\n"
                       "  aile keys routing ID [SETTING=VALUE...]   its routing settings (aile keys routing --help)\n"
                       "  aile keys routes ID       the key's named routes, with today's spend per route and target\n"
                       "  aile keys routes ID --set FILE   replace the key's routes with the JSON list in FILE (docs/keys.md)"));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption(
        {QStringLiteral("set"), QStringLiteral("With routes: the JSON file holding the key's whole list of routes."), QStringLiteral("file")});
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("list, create, revoke or routes"));
    parser.addPositionalArgument(QStringLiteral("arg"), QStringLiteral("the name (create) or the key id (revoke)"));
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const Connection c = connectionFrom(parser);
    const QStringList pos = parser.positionalArguments();
    const QString action = pos.value(0, QStringLiteral("list"));
    QByteArray body;
    QString error;
    if (action == QLatin1String("create") && pos.size() == 2) {
        const QByteArray payload = QJsonDocument(QJsonObject{{QStringLiteral("name"), pos.at(1)}}).toJson(QJsonDocument::Compact);
        if (call(c, "POST", QStringLiteral("/keys"), {}, &body, &error, payload) != 201) {
            err << "aile keys create: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        if (parser.isSet(QStringLiteral("json"))) {
            out << body << Qt::endl;
            return 0;
        }
        const QJsonObject r = QJsonDocument::fromJson(body).object();
        out << "created " << r.value(QLatin1String("key")).toObject().value(QLatin1String("id")).toString() << " \"" << pos.at(1) << "\"\n"
            << r.value(QLatin1String("plain")).toString() << "\n"
            << "This is the only time the key is shown: copy it now.\n";
        return 0;
    }
    if (action == QLatin1String("revoke") && pos.size() == 2) {
        const QString path = QStringLiteral("/keys/") + QString::fromLatin1(QUrl::toPercentEncoding(pos.at(1)));
        if (call(c, "DELETE", path, {}, &body, &error) != 200) {
            err << "aile keys revoke: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        out << "revoked " << QJsonDocument::fromJson(body).object().value(QLatin1String("key")).toObject().value(QLatin1String("id")).toString()
            << Qt::endl;
        return 0;
    }
    if (action == QLatin1String("routes") && pos.size() == 2)
        return keyRoutes(c, pos.at(1), parser.value(QStringLiteral("set")), parser.isSet(QStringLiteral("json")));
    if (action != QLatin1String("list") || pos.size() > 1) {
        err << "aile keys: say `list`, `create NAME`, `revoke ID`, `routing ID` or `routes ID`\n";
        return 2;
    }
    if (call(c, "GET", QStringLiteral("/keys"), {}, &body, &error) != 200) {
        err << "aile keys: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    out << QStringLiteral("%1  %2  %3  %4  %5\n")
               .arg(QStringLiteral("id"), -14)
               .arg(QStringLiteral("name"), -24)
               .arg(QStringLiteral("prefix"), -14)
               .arg(QStringLiteral("state"), -8)
               .arg(QStringLiteral("spent today $"));
    for (const QJsonValue &v : QJsonDocument::fromJson(body).object().value(QLatin1String("keys")).toArray()) {
        const QJsonObject k = v.toObject();
        out << QStringLiteral("%1  %2  %3  %4  %5\n")
                   .arg(k.value(QLatin1String("id")).toString(), -14)
                   .arg(k.value(QLatin1String("name")).toString().left(24), -24)
                   .arg(k.value(QLatin1String("prefix")).toString(), -14)
                   .arg(k.value(QLatin1String("revoked")).toBool() ? QStringLiteral("revoked") : QStringLiteral("active"), -8)
                   .arg(k.value(QLatin1String("spentTodayUsd")).toDouble(), 0, 'f', 6);
    }
    return 0;
}

int runDryRun(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("What a request would do, without sending it: per target, the sharers your filters removed, how many are\n"
                       "unavailable, and the ones left in the order they would be tried, with their quotes. Nothing is sent,\n"
                       "charged or written.\n"
                       "  aile dry-run MODEL [--key KEY] [--endpoint PATH] [--body FILE] [--header 'x-aile-max-price: 60%']..."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("key"), QStringLiteral("Read this key's routing settings (id or name)."), QStringLiteral("KEY")});
    parser.addOption({QStringLiteral("endpoint"), QStringLiteral("The path (default /v1/chat/completions)."), QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("body"), QStringLiteral("A request body (JSON file); without one, a one-line prompt."), QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("header"), QStringLiteral("A header the request would carry, as 'name: value' (repeatable)."), QStringLiteral("H")});
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("provider/model, auto/model, or a route name"));
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1) {
        err << "aile dry-run: name one model, e.g. aile dry-run openai/gpt-5.2\n";
        return 2;
    }
    QJsonObject ask{{QStringLiteral("model"), pos.first()}};
    if (parser.isSet(QStringLiteral("key")))
        ask.insert(QStringLiteral("key"), parser.value(QStringLiteral("key")));
    if (parser.isSet(QStringLiteral("endpoint")))
        ask.insert(QStringLiteral("endpoint"), parser.value(QStringLiteral("endpoint")));
    if (parser.isSet(QStringLiteral("body"))) {
        QFile f(parser.value(QStringLiteral("body")));
        const QJsonDocument doc = f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()) : QJsonDocument();
        if (!doc.isObject()) {
            err << "aile dry-run: " << parser.value(QStringLiteral("body")) << " is not a readable JSON object" << Qt::endl;
            return 2;
        }
        ask.insert(QStringLiteral("body"), doc.object());
    }
    QJsonObject headers;
    for (const QString &h : parser.values(QStringLiteral("header"))) {
        const qsizetype colon = h.indexOf(QLatin1Char(':'));
        if (colon <= 0) {
            err << "aile dry-run: --header takes 'name: value', not \"" << h << "\"" << Qt::endl;
            return 2;
        }
        headers.insert(h.left(colon).trimmed().toLower(), h.mid(colon + 1).trimmed());
    }
    if (!headers.isEmpty())
        ask.insert(QStringLiteral("headers"), headers);
    const Connection c = connectionFrom(parser);
    QByteArray body;
    QString error;
    if (call(c, "POST", QStringLiteral("/keys/route-dry-run"), {}, &body, &error, QJsonDocument(ask).toJson(QJsonDocument::Compact)) != 200) {
        err << "aile dry-run: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    const QJsonObject r = QJsonDocument::fromJson(body).object();
    if (r.contains(QLatin1String("route"))) {
        const QJsonObject route = r.value(QLatin1String("route")).toObject();
        out << "route " << route.value(QLatin1String("name")).toString() << " (" << route.value(QLatin1String("order")).toString()
            << (route.contains(QLatin1String("turn")) ? QStringLiteral(", next turn: target %1").arg(route.value(QLatin1String("turn")).toInt() + 1)
                                                      : QString())
            << "), spent today $" << QString::number(route.value(QLatin1String("spentTodayUsd")).toDouble(), 'f', 6) << '\n';
    }
    for (const QJsonValue &tv : r.value(QLatin1String("targets")).toArray()) {
        const QJsonObject t = tv.toObject();
        out << t.value(QLatin1String("target")).toString();
        if (t.contains(QLatin1String("translated")))
            out << " (translated " << t.value(QLatin1String("translated")).toString() << ')';
        out << '\n';
        if (t.contains(QLatin1String("refusal")))
            out << "  skipped: " << t.value(QLatin1String("refusal")).toObject().value(QLatin1String("message")).toString() << '\n';
        for (const QJsonValue &v : t.value(QLatin1String("sharers")).toArray()) {
            const QJsonObject s = v.toObject();
            out << QStringLiteral("  %1 %2  %3  %4  %5%6\n")
                       .arg(s.value(QLatin1String("rank")).toInt(), 3)
                       .arg(s.value(QLatin1String("handle")).toString())
                       .arg(s.value(QLatin1String("name")).toString(), -20)
                       .arg(s.value(QLatin1String("quoteUsd")).isDouble()
                                ? QStringLiteral("$%1").arg(s.value(QLatin1String("quoteUsd")).toDouble(), 0, 'f', 6)
                                : QStringLiteral("unquotable"))
                       .arg(s.value(QLatin1String("tested")).toBool() ? QStringLiteral("tested") : QStringLiteral("untested"))
                       .arg(s.value(QLatin1String("first")).toBool()           ? QStringLiteral("  <- first")
                            : s.value(QLatin1String("tiedWithFirst")).toBool() ? QStringLiteral("  (tied with the first)")
                                                                               : QString());
        }
        if (const int more = t.value(QLatin1String("more")).toInt())
            out << "  … and " << more << " more\n";
        for (const QJsonValue &v : t.value(QLatin1String("removed")).toArray())
            out << "  removed " << v.toObject().value(QLatin1String("handle")).toString() << " ("
                << v.toObject().value(QLatin1String("name")).toString() << "): " << v.toObject().value(QLatin1String("reason")).toString() << '\n';
        const QJsonObject unavailable = t.value(QLatin1String("unavailable")).toObject();
        for (auto it = unavailable.begin(); it != unavailable.end(); ++it)
            out << "  unavailable (" << it.key() << "): " << it.value().toInt() << '\n';
    }
    if (r.contains(QLatin1String("refusal")))
        out << "refused: HTTP " << r.value(QLatin1String("refusal")).toObject().value(QLatin1String("status")).toInt() << ", "
            << r.value(QLatin1String("refusal")).toObject().value(QLatin1String("message")).toString() << '\n';
    out << "order: " << r.value(QLatin1String("ordering")).toString() << ". " << r.value(QLatin1String("note")).toString() << Qt::endl;
    return 0;
}

} // namespace

int runClientCommand(const QString &command, const QStringList &arguments)
{
    if (command == QLatin1String("traces") && arguments.value(1) == QLatin1String("action"))
        return runTraceAction(arguments);
    if (command == QLatin1String("traces"))
        return runTraces(arguments);
    if (command == QLatin1String("usage"))
        return runUsage(arguments);
    if (command == QLatin1String("sharers") && arguments.value(1) == QLatin1String("add"))
        return runSharersAdd(arguments);
    if (command == QLatin1String("sharers"))
        return runSharers(arguments);
    if (command == QLatin1String("connect"))
        return runConnect(arguments);
    if (command == QLatin1String("keys") && arguments.value(1) == QLatin1String("routing"))
        return runKeysRouting(arguments);
    if (command == QLatin1String("config"))
        return runConfig(arguments);
    if (command == QLatin1String("catalog"))
        return runCatalog(arguments);
    if (command == QLatin1String("dry-run"))
        return runDryRun(arguments);
    if (command == QLatin1String("replay"))
        return runReplay(arguments);
    if (command == QLatin1String("keys"))
        return runKeys(arguments);
    QTextStream(stderr) << "aile: unknown command \"" << command << "\"; try aile --help\n";
    return 2;
}

} // namespace Aile::Cli
