#pragma once

#include "FakeUpstream.h"

#include <QtCore/QHash>

namespace Aile::Test {

/// The two subscription front doors, as the fake upstream plays them (docs/subscriptions.md):
/// - Anthropic with a Claude OAuth login (a token starting `sk-ant-oat`): refused when sent as
///   `x-api-key` or without the `oauth-2025-04-20` beta flag; every answer carries the
///   `anthropic-ratelimit-unified-*` window headers; a spent window answers 429 with the reject
///   headers (status rejected, the 5-hour reset, representative claim five_hour).
/// - The Codex backend (paths under /backend-api/codex/): needs `Authorization: Bearer` and
///   `chatgpt-account-id`; answers carry `x-codex-primary-*` and `x-codex-secondary-*`; a spent
///   window answers 429 `usage_limit_reached` with the reset.
/// A window is spent by exhaust() until the reset it names (read on the shared clock), or by the
/// control call `POST /__fake/exhaust?account=<token or account id>&seconds=<until reset>` (the
/// aile-fake-upstream program, for the e2e tests). API-key calls pass through untouched.
class FakeSubscriptions
{
public:
    static constexpr qint64 FiveHoursMs = 5 * 3600 * 1000;

    explicit FakeSubscriptions(Clock *clock) : m_clock(clock) { }
    /// Becomes the upstream's front door; this object must outlive it.
    void attach(FakeUpstream &upstream);
    /// The account (a Claude token or a ChatGPT account id) has spent its 5-hour window until resetAtMs.
    void exhaust(const QByteArray &account, qint64 resetAtMs) { m_spentUntil.insert(account, resetAtMs); }
    /// Utilisation reported while a window is not spent (0..1), for both windows.
    void setUsed(double fiveHour, double week)
    {
        m_used5h = fiveHour;
        m_used7d = week;
    }

    std::optional<Script> answer(const ReceivedRequest &request, Http::HttpHeaders *extra);

private:
    std::optional<Script> anthropic(const ReceivedRequest &request, Http::HttpHeaders *extra);
    std::optional<Script> codex(const ReceivedRequest &request, Http::HttpHeaders *extra);
    std::optional<Script> control(const ReceivedRequest &request);
    /// The 5-hour window's reset for this account: when spent, its reset; else the window's end.
    qint64 resetOf(const QByteArray &account, bool *spent) const;

    Clock *m_clock;
    QHash<QByteArray, qint64> m_spentUntil;
    double m_used5h = 0.12;
    double m_used7d = 0.05;
};

} // namespace Aile::Test
