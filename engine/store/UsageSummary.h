#pragma once

#include "TraceRecord.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QStringList>

namespace Aile::Store {

class Store;

/// One sharer's figures over the summary's days (one value per day, oldest first).
struct SharerUsage
{
    QString sharer;            // handle
    QString name;              // its name now; the handle when it is gone
    bool subscription = false; // its ledger rows were served on a plan
    QList<double> spentUsd;
    QList<double> listValueUsd;
    QList<int> requests;
    double totalSpent() const;
    double totalListValue() const;
    int totalRequests() const;
};

/// Money spent and subscription usage at its list-price value, per day and per sharer, summed
/// from the ledger (docs/subscriptions.md "What it costs"). The two are never added together: a
/// plan's usage was not paid for per token. What GET /keys/usage/spend, `aile usage` and the
/// Charts page show.
struct UsageSummary
{
    QStringList days;           // YYYY-MM-DD (UTC), oldest first; the last is "today"
    QList<SharerUsage> sharers; // subscriptions first, then by money spent, then by name

    double spentOn(int day) const;
    double listValueOn(int day) const;
    int requestsOn(int day) const;
    /// The sharers with something on that day: subscriptions with a value, the others with money.
    QList<const SharerUsage *> plansOn(int day) const;

    QJsonObject toJson() const;
    static UsageSummary fromJson(const QJsonObject &o);
};

/// Sums the entries of the given days, optionally of one key only (its id); names gives each
/// sharer handle its display name.
UsageSummary summarizeUsage(const QStringList &days, const QList<LedgerEntry> &entries, const QHash<QString, QString> &names,
                            const QString &keyId = {});
/// The same from the ledger summed by the database (Store::ledgerGroups).
UsageSummary summarizeUsage(const QStringList &days, const QList<LedgerGroup> &groups, const QHash<QString, QString> &names);
/// The same summary, summed by the store's database (Store::ledgerGroups), with the sharers'
/// names from the store.
UsageSummary readUsage(const Store &store, const QStringList &days, const QString &keyId = {});
/// The last `count` UTC days up to the one holding nowMs, oldest first.
QStringList daysUpTo(qint64 nowMs, int count);

} // namespace Aile::Store
