#pragma once

#include <QtCore/QCoreApplication>
#include <QtCore/QString>

namespace Aile::Ui {

/// How numbers read in the tables, the charts and the tray: one place so that every view shows a
/// duration, a price or a token count the same way, in the user's locale.
class Format
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::Format)
public:
    /// "850 ms", "1.2 s"; an em dash when nothing was measured (negative).
    static QString duration(qint64 ms);
    /// "$0.0123"; small amounts keep four decimals so a cheap request does not read as free.
    static QString money(double usd);
    /// "1,234"; an em dash when the provider did not report it (negative).
    static QString tokens(qint64 count);
    /// Local time of a trace: "14:03:27" today, with the date otherwise.
    static QString time(qint64 ms, qint64 nowMs);
    static QString dateTime(qint64 ms);
    /// "200" or "no answer" when no status came back.
    static QString status(int status);
    /// The outcome of an attempt as a reader would say it ("served", "failed over", ...).
    static QString outcome(const QString &outcome);
    /// What a client was recognised as ("Claude Code", "Codex CLI", ...).
    static QString client(const QString &client);
    /// The session-affinity verdict: fresh, pinned, off, skipped: <why>, moved: <why>.
    static QString affinity(const QString &verdict);
    /// What a session pin was found or kept by (reasoning, tool call, thread, session, ...).
    static QString pinEvidence(const QString &kind);
};

} // namespace Aile::Ui
