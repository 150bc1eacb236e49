#include "UsageCommand.h"

#include "ManagementCall.h"

#include "store/UsageSummary.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QJsonDocument>
#include <QtCore/QTextStream>

namespace Aile::Cli {

namespace {

// As the GUI writes money: small amounts keep four decimals so a cheap request does not read as free.
QString dollars(double usd)
{
    return QStringLiteral("$") + QString::number(usd, 'f', usd != 0 && qAbs(usd) < 1.0 ? 4 : 2);
}

} // namespace

int runUsage(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Money spent and subscription usage at its list-price value (never added together: a plan is not paid per token)."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("days"), QStringLiteral("How many UTC days, today included (default 14, at most 90)."), QStringLiteral("N"),
                      QStringLiteral("14")});
    parser.addOption({QStringLiteral("key"), QStringLiteral("Only this key (name or id)."), QStringLiteral("KEY")});
    parser.process(arguments);
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("days"), parser.value(QStringLiteral("days")));
    if (parser.isSet(QStringLiteral("key")))
        q.addQueryItem(QStringLiteral("key"), parser.value(QStringLiteral("key")));
    QByteArray body;
    QString error;
    QTextStream out(stdout), err(stderr);
    const int status = call(connectionFrom(parser), "GET", QStringLiteral("/keys/usage/spend"), q, &body, &error);
    if (status != 200) {
        err << "aile usage: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    const Store::UsageSummary u = Store::UsageSummary::fromJson(QJsonDocument::fromJson(body).object());
    const int today = int(u.days.size()) - 1;
    out << "today (" << u.days.value(today) << ", UTC): ";
    QStringList parts;
    for (const Store::SharerUsage *plan : u.plansOn(today))
        parts << QStringLiteral("%1 served %2 of list-price usage").arg(plan->name, dollars(plan->listValueUsd.value(today)));
    parts << QStringLiteral("API keys cost %1").arg(dollars(u.spentOn(today)));
    out << parts.join(QStringLiteral("; ")) << Qt::endl << Qt::endl;

    out << QStringLiteral("%1  %2  %3  %4\n")
               .arg(QStringLiteral("sharer"), -32)
               .arg(QStringLiteral("kind"), -12)
               .arg(QStringLiteral("spent"), 10)
               .arg(QStringLiteral("list value"), 12);
    for (const Store::SharerUsage &s : u.sharers)
        out << QStringLiteral("%1  %2  %3  %4  (%5 requests)\n")
                   .arg(s.name.left(32), -32)
                   .arg(s.subscription ? QStringLiteral("subscription") : QStringLiteral("api-key"), -12)
                   .arg(dollars(s.totalSpent()), 10)
                   .arg(s.subscription ? dollars(s.totalListValue()) : QStringLiteral("-"), 12)
                   .arg(s.totalRequests());
    out << Qt::endl
        << QStringLiteral("%1  %2  %3  %4\n")
               .arg(QStringLiteral("day"), -10)
               .arg(QStringLiteral("spent"), 10)
               .arg(QStringLiteral("plans at list"), 15)
               .arg(QStringLiteral("requests"), 8);
    for (int d = 0; d < u.days.size(); ++d)
        out << QStringLiteral("%1  %2  %3  %4\n")
                   .arg(u.days.at(d), -10)
                   .arg(dollars(u.spentOn(d)), 10)
                   .arg(dollars(u.listValueOn(d)), 15)
                   .arg(u.requestsOn(d), 8);
    out << Qt::endl
        << "Budgets and spend limits count the money spent only; a plan's list-price value is what its usage "
           "would have cost on an API key."
        << Qt::endl;
    return 0;
}

} // namespace Aile::Cli
