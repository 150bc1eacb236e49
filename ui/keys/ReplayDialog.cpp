#include "ReplayDialog.h"

#include "common/Format.h"
#include "common/ManagementClient.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {
namespace {

QTreeWidget *table(const QStringList &headers, const QString &objectName, const QString &accessibleName, QWidget *parent)
{
    auto *t = new QTreeWidget(parent);
    t->setObjectName(objectName);
    t->setAccessibleName(accessibleName);
    t->setRootIsDecorated(false);
    t->setHeaderLabels(headers);
    t->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return t;
}

} // namespace

ReplayDialog::ReplayDialog(ManagementClient *client, const QString &keyId, const QString &keyName, const Api::ReplayAsk &edits, QWidget *parent)
    : QDialog(parent), m_client(client), m_keyId(keyId), m_edits(edits), m_days(new QSpinBox(this)), m_run(new QPushButton(tr("&Replay"), this)),
      m_summary(new QLabel(this)),
      m_comparison(table({tr("What"), tr("Actual"), tr("Projected")}, QStringLiteral("replayComparison"), tr("Actual and projected"), this)),
      m_chart(new QChartView(new QChart, this)), m_counts(table({tr("Target or sharer"), tr("Actual"), tr("Projected")},
                                                                QStringLiteral("replayCounts"), tr("Requests per target and sharer"), this)),
      m_changes(
          table({tr("When"), tr("Model"), tr("Was"), tr("Would be")}, QStringLiteral("replayChanges"), tr("The requests that change most"), this)),
      m_notes(new QLabel(this))
{
    setObjectName(QStringLiteral("replayDialog"));
    setWindowTitle(tr("Replay history: %1").arg(keyName));
    setAccessibleName(tr("Replay history"));

    m_days->setObjectName(QStringLiteral("replayDays"));
    m_days->setAccessibleName(tr("Days to replay"));
    m_days->setRange(1, 90);
    m_days->setValue(7);
    m_days->setSuffix(tr(" days"));
    m_run->setObjectName(QStringLiteral("runReplay"));
    m_run->setAccessibleName(tr("Replay the recorded requests"));
    connect(m_run, &QPushButton::clicked, this, &ReplayDialog::run);
    m_summary->setObjectName(QStringLiteral("replaySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_notes->setObjectName(QStringLiteral("replayNotes"));
    m_notes->setWordWrap(true);

    const QString chartName = tr("Cost per day, actual and projected");
    m_chart->setObjectName(QStringLiteral("replayChart"));
    m_chart->setAccessibleName(chartName);
    m_chart->viewport()->setAccessibleName(chartName);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumSize(360, 220);
    m_chart->chart()->setTitle(chartName);
    m_chart->chart()->legend()->setAlignment(Qt::AlignBottom);
    m_chart->chart()->setAnimationOptions(QChart::NoAnimation);

    auto *top = new QHBoxLayout;
    auto *daysLabel = new QLabel(tr("The key's requests of the last"), this);
    daysLabel->setBuddy(m_days);
    top->addWidget(daysLabel);
    top->addWidget(m_days);
    top->addWidget(m_run);
    top->addStretch(1);

    auto *sideBySide = new QHBoxLayout;
    sideBySide->addWidget(m_comparison, 1);
    sideBySide->addWidget(m_chart, 1);
    auto *lists = new QHBoxLayout;
    lists->addWidget(m_counts, 1);
    lists->addWidget(m_changes, 2);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addLayout(sideBySide, 2);
    layout->addLayout(lists, 2);
    layout->addWidget(m_notes);
    layout->addWidget(buttons);
    resize(980, 680);
}

void ReplayDialog::setDays(int days)
{
    m_days->setValue(days);
}

QChart *ReplayDialog::chart() const
{
    return m_chart->chart();
}

QString ReplayDialog::summary() const
{
    return m_summary->text();
}

void ReplayDialog::run()
{
    Api::ReplayAsk ask = m_edits;
    ask.key = m_keyId;
    ask.days = m_days->value();
    m_run->setEnabled(false);
    m_summary->setText(tr("Replaying the recorded requests… nothing is sent, charged or written."));
    m_client->routeReplay(ask.toJson(), this, [this](const Reply<Api::ReplayResult> &reply) {
        m_run->setEnabled(true);
        if (!reply.ok()) {
            m_summary->setText(reply.error);
            Q_EMIT failed(reply.error);
            return;
        }
        showAnswer(reply.value);
        Q_EMIT answered();
    });
}

QString ReplayDialog::outcomeText(const QJsonObject &o)
{
    const int status = o.value(QLatin1String("status")).toInt();
    if (status >= 200 && status < 300)
        return tr("%1 via %2, %3")
            .arg(o.value(QLatin1String("target")).toString(), o.value(QLatin1String("sharer")).toString(),
                 Format::money(o.value(QLatin1String("costUsd")).toDouble()));
    const QString code = o.value(QLatin1String("code")).toString();
    return code.isEmpty() ? tr("refused (%1)").arg(status) : tr("refused (%1, %2)").arg(status).arg(code);
}

void ReplayDialog::showAnswer(const Api::ReplayResult &a)
{
    m_answer = a;
    const double delta = a.projectedUsd - a.actualUsd;
    QString scope;
    if (a.scope == QLatin1String("route"))
        scope = tr("the %n requests that asked for route %1", nullptr, a.replayed).arg(a.route);
    else if (a.scope == QLatin1String("all"))
        scope = tr("all %n requests of the key, through route %1", nullptr, a.replayed).arg(a.route);
    else
        scope = tr("the key's %n requests as they asked", nullptr, a.replayed);
    m_summary->setText(tr("Over %1 of the last %n days, this would have cost %2 instead of %3 (%4%5).", nullptr, a.days)
                           .arg(scope, Format::money(a.projectedUsd), Format::money(a.actualUsd),
                                delta >= 0 ? QStringLiteral("+") : QStringLiteral("−"), Format::money(qAbs(delta))));

    m_comparison->clear();
    auto row = [this](const QString &what, const QString &actual, const QString &projected) {
        m_comparison->addTopLevelItem(new QTreeWidgetItem(QStringList{what, actual, projected}));
    };
    auto withDay = [](int count, const QString &day) { return day.isEmpty() ? QString::number(count) : tr("%1 (first on %2)").arg(count).arg(day); };
    row(tr("Cost"), Format::money(a.actualUsd), Format::money(a.projectedUsd));
    row(tr("Served"), QString::number(a.actualServed), QString::number(a.projectedServed));
    row(tr("Stopped by a daily budget"), QString(), withDay(a.budgetHits, a.budgetFirstDay));
    row(tr("Refused by the cost cap"), QString(), QString::number(a.costCapRefused));
    row(tr("Charged the cost cap"), QString(), QString::number(a.costCapCapped));
    row(tr("No sharer"), QString(), withDay(a.noSharer, a.noSharerFirstDay));
    row(tr("Requests that change"), QString(), QString::number(a.changed));

    m_counts->clear();
    for (auto it = a.perTarget.begin(); it != a.perTarget.end(); ++it)
        m_counts->addTopLevelItem(new QTreeWidgetItem(QStringList{it.key(), QString::number(it->first), QString::number(it->second)}));
    for (auto it = a.perSharer.begin(); it != a.perSharer.end(); ++it)
        m_counts->addTopLevelItem(
            new QTreeWidgetItem(QStringList{tr("sharer %1").arg(it.key()), QString::number(it->first), QString::number(it->second)}));

    m_changes->clear();
    for (const Api::ReplayChange &c : a.topChanges)
        m_changes->addTopLevelItem(
            new QTreeWidgetItem(QStringList{Format::dateTime(c.startedMs), c.model, outcomeText(c.actual), outcomeText(c.projected)}));
    m_notes->setText(a.notes.join(QLatin1Char('\n')));
    fillChart(a);
}

void ReplayDialog::fillChart(const Api::ReplayResult &a)
{
    QChart *chart = m_chart->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes())
        chart->removeAxis(axis);
    auto *actual = new QBarSet(tr("Actual"));
    auto *projected = new QBarSet(tr("Projected"));
    QStringList days;
    double top = 0;
    for (const Api::ReplayDayValue &d : a.perDay) {
        *actual << d.actualUsd;
        *projected << d.projectedUsd;
        days << d.day.mid(5); // MM-DD: the year is the window's
        top = qMax(top, qMax(d.actualUsd, d.projectedUsd));
    }
    auto *series = new QBarSeries;
    series->append(actual);
    series->append(projected);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(days);
    auto *y = new QValueAxis;
    y->setRange(0, top > 0 ? top * 1.1 : 1);
    y->setLabelFormat(QStringLiteral("$%.2f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace Aile::Ui
