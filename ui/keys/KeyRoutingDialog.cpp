#include "KeyRoutingDialog.h"
#include "ReplayDialog.h"

#include "common/ManagementClient.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

// The key's routing fields (docs/keys.md), as the API names them.
const QLatin1String MaxPricePercent("maxPricePercent");
const QLatin1String MaxPrice("maxPrice");
const QLatin1String MinPricePercent("minPricePercent");
const QLatin1String MaxCostUsd("maxCostUsd");
const QLatin1String SpendLimit("spendLimitUsdPerDay");
const QLatin1String Provider("provider");
const QLatin1String ExcludeProviders("excludeProviders");
const QLatin1String DataCollection("dataCollection");
const QLatin1String AllowSelfHosted("allowSelfHosted");
const QLatin1String OnlySharers("onlySharers");
const QLatin1String NeverSharers("neverSharers");
const QLatin1String Prefer("prefer");
const QLatin1String DemoteFailing("demoteFailing");
const QLatin1String PhaseLimits("phaseLimits");
const QLatin1String Sticky("sticky");
const QLatin1String VerifiedOnly("verifiedOnly");
const QLatin1String PinSharer("sharer");
const QLatin1String BareAny("bareModelAnyProvider");
const QLatin1String BareProviders("bareModelProviders");

const QLatin1String Controlled[] = {MaxPricePercent, MaxPrice, MinPricePercent, MaxCostUsd, SpendLimit, Provider,
                                    ExcludeProviders, DataCollection, AllowSelfHosted, OnlySharers, NeverSharers,
                                    Prefer, DemoteFailing, Sticky, VerifiedOnly, PinSharer, BareAny};

// The API's ranges: a cost cap above 0 and at most 10,000 dollars with at most 6 decimals.
constexpr double MaxCostLimit = 10000;
constexpr int MaxListSize = 50;

QDoubleSpinBox *dollars(QWidget *parent, const QString &objectName, int decimals, double maximum)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setObjectName(objectName);
    box->setDecimals(decimals);
    box->setRange(0, maximum);
    box->setPrefix(QStringLiteral("$"));
    box->setSingleStep(0.1);
    return box;
}

QCheckBox *check(QWidget *parent, const QString &objectName, const QString &text)
{
    auto *box = new QCheckBox(text, parent);
    box->setObjectName(objectName);
    box->setAccessibleName(QString(text).remove(QLatin1Char('&')));
    return box;
}

QListWidget *checkList(QWidget *parent, const QString &objectName, const QString &accessibleName)
{
    auto *list = new QListWidget(parent);
    list->setObjectName(objectName);
    list->setAccessibleName(accessibleName);
    list->setMinimumHeight(90);
    return list;
}

void addItem(QListWidget *list, const QString &text, const QString &data, bool on)
{
    auto *item = new QListWidgetItem(text, list);
    item->setData(Qt::UserRole, data);
    item->setToolTip(data);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

} // namespace

KeyRoutingDialog::KeyRoutingDialog(ManagementClient *client, QWidget *parent)
    : KeyEditDialog(client, QStringLiteral("routing"), tr("Save the routing"), tr("Why the engine refused the settings"), parent),
      m_ceilingMode(new QComboBox(this)),
      m_ceiling(new QDoubleSpinBox(this)),
      m_floor(new QDoubleSpinBox(this)),
      m_maxCost(dollars(this, QStringLiteral("maxCost"), 6, MaxCostLimit)),
      m_spendLimit(dollars(this, QStringLiteral("spendLimit"), 2, 1000000)),
      m_provider(new QComboBox(this)),
      m_neverProviders(checkList(this, QStringLiteral("neverProviders"), tr("Never these providers"))),
      m_noTraining(check(this, QStringLiteral("noTraining"), tr("Only providers that do not &train on prompts"))),
      m_selfHosted(check(this, QStringLiteral("allowSelfHosted"), tr("Allow self-&hosted models"))),
      m_onlySharers(checkList(this, QStringLiteral("onlySharers"), tr("Only these sharers"))),
      m_neverSharers(checkList(this, QStringLiteral("neverSharers"), tr("Never these sharers"))),
      m_handle(new QLineEdit(this)),
      m_speed(check(this, QStringLiteral("preferSpeed"), tr("Prefer &speed over price"))),
      m_demote(check(this, QStringLiteral("demoteFailing"), tr("Move sharers that keep &failing to the back"))),
      m_phaseLimits(check(this, QStringLiteral("phaseLimits"),
                          tr("Time limits per phase: 30 s to a stream's first byte, 60 s between events, 180 s for an answer not streamed (&524 past them)"))),
      m_sticky(check(this, QStringLiteral("sticky"), tr("&Keep a conversation on one sharer"))),
      m_verified(check(this, QStringLiteral("verifiedOnly"), tr("Only sharers that passed a test of the model (&verified)"))),
      m_pinSharer(new QComboBox(this)),
      m_bareAny(check(this, QStringLiteral("bareModelAnyProvider"), tr("Let a bare model id use any provider")))
{
    setObjectName(QStringLiteral("keyRoutingDialog"));
    setWindowTitle(tr("Key routing"));
    setAccessibleName(tr("Key routing"));

    // Price and cost.
    m_ceilingMode->setObjectName(QStringLiteral("ceilingMode"));
    m_ceilingMode->setAccessibleName(tr("Price ceiling"));
    // The choice's own text can be long (French): the two columns stay balanced.
    m_ceilingMode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_ceilingMode->setMinimumContentsLength(14);
    m_ceilingMode->addItem(tr("No ceiling"), int(Ceiling::None));
    m_ceilingMode->addItem(tr("Percent of the model's list price"), int(Ceiling::PercentOfList));
    m_ceilingMode->addItem(tr("Dollars per million tokens"), int(Ceiling::PerMillion));
    m_ceiling->setObjectName(QStringLiteral("ceiling"));
    m_ceiling->setAccessibleName(tr("Price ceiling value"));
    m_floor->setObjectName(QStringLiteral("floor"));
    m_floor->setAccessibleName(tr("Price floor"));
    m_floor->setDecimals(2);
    m_floor->setRange(0, 100);
    m_floor->setSuffix(tr("% of list"));
    m_floor->setSpecialValueText(tr("no floor"));
    m_floor->setToolTip(tr("A sharer priced under this share of the model's list price is skipped (the key's max discount)."));
    m_maxCost->setAccessibleName(tr("Max cost per request"));
    m_maxCost->setSpecialValueText(tr("no cap"));
    m_maxCost->setToolTip(tr("The most one request may be charged. A sharer quoting above it is passed over; "
                             "when all do, the request is refused with a 402 and nothing is charged."));
    m_spendLimit->setAccessibleName(tr("Spend limit per day"));
    m_spendLimit->setSpecialValueText(tr("no limit"));
    m_spendLimit->setToolTip(tr("Over it the key's requests are refused (403 budget_exceeded) until 00:00 UTC."));
    auto *ceilingRow = new QHBoxLayout;
    ceilingRow->addWidget(m_ceilingMode, 1);
    ceilingRow->addWidget(m_ceiling);
    auto *price = new QGroupBox(tr("Price and cost"), this);
    auto *priceForm = new QFormLayout(price);
    auto *ceilingLabel = new QLabel(tr("Price &ceiling:"), price);
    ceilingLabel->setBuddy(m_ceilingMode);
    priceForm->addRow(ceilingLabel, ceilingRow);
    priceForm->addRow(tr("Price f&loor:"), m_floor);
    priceForm->addRow(tr("Max cost per &request:"), m_maxCost);
    priceForm->addRow(tr("Spend &limit per day:"), m_spendLimit);

    // Providers.
    m_provider->setObjectName(QStringLiteral("providerPin"));
    m_provider->setAccessibleName(tr("Only this provider"));
    m_provider->setEditable(true);
    m_provider->setInsertPolicy(QComboBox::NoInsert);
    m_provider->lineEdit()->setPlaceholderText(tr("any provider"));
    m_provider->lineEdit()->setAccessibleName(tr("Provider id"));
    m_selfHosted->setChecked(true);
    auto *providers = new QGroupBox(tr("Providers"), this);
    auto *providerForm = new QFormLayout(providers);
    providerForm->addRow(tr("Only this &provider:"), m_provider);
    auto *neverProvidersLabel = new QLabel(tr("&Never these providers:"), providers);
    neverProvidersLabel->setBuddy(m_neverProviders);
    providerForm->addRow(neverProvidersLabel, m_neverProviders);
    providerForm->addRow(m_noTraining);
    providerForm->addRow(m_selfHosted);

    // Sharers.
    m_handle->setObjectName(QStringLiteral("sharerHandle"));
    m_handle->setAccessibleName(tr("Sharer handle to add"));
    m_handle->setPlaceholderText(tr("L + 16 hex digits"));
    auto *allowHandle = new QPushButton(tr("A&llow"), this);
    allowHandle->setObjectName(QStringLiteral("allowHandle"));
    allowHandle->setAccessibleName(tr("Add the handle to Only these sharers"));
    auto *blockHandle = new QPushButton(tr("&Block"), this);
    blockHandle->setObjectName(QStringLiteral("blockHandle"));
    blockHandle->setAccessibleName(tr("Add the handle to Never these sharers"));
    connect(allowHandle, &QPushButton::clicked, this, [this] { addHandle(m_onlySharers); });
    connect(blockHandle, &QPushButton::clicked, this, [this] { addHandle(m_neverSharers); });
    auto *sharers = new QGroupBox(tr("Sharers"), this);
    auto *sharerGrid = new QGridLayout(sharers);
    auto *onlyLabel = new QLabel(tr("&Only these sharers:"), sharers);
    onlyLabel->setBuddy(m_onlySharers);
    auto *neverLabel = new QLabel(tr("Ne&ver these sharers:"), sharers);
    neverLabel->setBuddy(m_neverSharers);
    sharerGrid->addWidget(onlyLabel, 0, 0);
    sharerGrid->addWidget(neverLabel, 0, 1);
    sharerGrid->addWidget(m_onlySharers, 1, 0);
    sharerGrid->addWidget(m_neverSharers, 1, 1);
    auto *handleRow = new QHBoxLayout;
    auto *handleLabel = new QLabel(tr("Han&dle:"), sharers);
    handleLabel->setBuddy(m_handle);
    handleRow->addWidget(handleLabel);
    handleRow->addWidget(m_handle, 1);
    handleRow->addWidget(allowHandle);
    handleRow->addWidget(blockHandle);
    sharerGrid->addLayout(handleRow, 2, 0, 1, 2);
    auto *sharerNote = new QLabel(tr("None ticked under Only these sharers: every sharer may serve. Up to 50 in each list; "
                                     "price order is unchanged among those left."),
                                  sharers);
    sharerNote->setWordWrap(true);
    sharerGrid->addWidget(sharerNote, 3, 0, 1, 2);

    // Behaviour.
    m_sticky->setChecked(true);
    auto *behaviour = new QGroupBox(tr("Order"), this);
    auto *behaviourLayout = new QVBoxLayout(behaviour);
    behaviourLayout->addWidget(m_speed);
    behaviourLayout->addWidget(m_demote);
    behaviourLayout->addWidget(m_phaseLimits);
    behaviourLayout->addWidget(m_sticky);
    behaviourLayout->addWidget(m_verified);

    // Advanced.
    m_pinSharer->setObjectName(QStringLiteral("pinSharer"));
    m_pinSharer->setAccessibleName(tr("Pin to one sharer"));
    auto *advanced = new QGroupBox(tr("Advanced"), this);
    auto *advancedForm = new QFormLayout(advanced);
    advancedForm->addRow(tr("One s&harer only:"), m_pinSharer);
    advancedForm->addRow(m_bareAny);
    m_bareAny->setToolTip(tr("An older setting: write auto/<model> to let any provider serve. Shown only while it is on."));

    m_neverProviders->setMaximumHeight(130);
    auto *left = new QVBoxLayout;
    left->addWidget(price);
    left->addWidget(providers);
    left->addWidget(behaviour);
    left->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(sharers, 1);
    right->addWidget(advanced);
    // What the last days would have done with these settings, before Save.
    auto *replay = new QPushButton(tr("Replay histor&y…"), this);
    replay->setObjectName(QStringLiteral("replayRoutingHistory"));
    replay->setAccessibleName(tr("Replay the key's recorded requests with these settings, unsaved"));
    connect(replay, &QPushButton::clicked, this, [this] {
        auto *dialog = new ReplayDialog(this->client(), keyId(), keyName(), QJsonObject{{QStringLiteral("routing"), routing()}}, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        dialog->run();
    });
    right->addWidget(replay, 0, Qt::AlignLeft);
    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    setFields(columns);

    // A spin box's editor is what takes the focus: it carries the box's name for a screen reader.
    for (QDoubleSpinBox *box : {m_ceiling, m_floor, m_maxCost, m_spendLimit})
        if (auto *editor = box->findChild<QLineEdit *>())
            editor->setAccessibleName(box->accessibleName());

    connect(m_ceilingMode, &QComboBox::currentIndexChanged, this, &KeyRoutingDialog::updateCeiling);
    updateCeiling();
    setRouting({});
    resize(1000, 640);
}

void KeyRoutingDialog::updateCeiling()
{
    const auto mode = Ceiling(m_ceilingMode->currentData().toInt());
    m_ceiling->setEnabled(mode != Ceiling::None);
    if (mode == Ceiling::PerMillion) {
        m_ceiling->setDecimals(4);
        m_ceiling->setRange(0.0001, 10000);
        m_ceiling->setPrefix(QStringLiteral("$"));
        m_ceiling->setSuffix(tr(" /Mtok"));
    } else {
        m_ceiling->setDecimals(2);
        m_ceiling->setRange(0.01, 1000);
        m_ceiling->setPrefix(QString());
        m_ceiling->setSuffix(tr("% of list"));
    }
}

void KeyRoutingDialog::setSharers(const QJsonArray &sharers)
{
    m_sharers = sharers;
    const QJsonObject current = routing();
    buildSharerLists(current);
    buildProviderList(current);
}

void KeyRoutingDialog::buildSharerLists(const QJsonObject &r)
{
    const QStringList only = strings(r.value(OnlySharers));
    const QStringList never = strings(r.value(NeverSharers));
    const QString pin = r.value(PinSharer).toString();
    m_onlySharers->clear();
    m_neverSharers->clear();
    m_pinSharer->clear();
    m_pinSharer->addItem(tr("(no pin)"), QString());
    QStringList known;
    for (const QJsonValue &v : m_sharers) {
        const QJsonObject s = v.toObject();
        const QString handle = s.value(QLatin1String("handle")).toString();
        const QString text = tr("%1 (%2)").arg(s.value(QLatin1String("name")).toString(), s.value(QLatin1String("provider")).toString());
        known << handle.toUpper();
        addItem(m_onlySharers, text, handle, only.contains(handle, Qt::CaseInsensitive));
        addItem(m_neverSharers, text, handle, never.contains(handle, Qt::CaseInsensitive));
        m_pinSharer->addItem(text, handle);
    }
    // Handles the key names that this engine does not know (a sharer removed, or one from the market).
    for (const QString &h : only)
        if (!known.contains(h.toUpper()))
            addItem(m_onlySharers, h, h, true);
    for (const QString &h : never)
        if (!known.contains(h.toUpper()))
            addItem(m_neverSharers, h, h, true);
    if (!pin.isEmpty() && !known.contains(pin.toUpper()))
        m_pinSharer->addItem(pin, pin);
    int pinIndex = 0;
    for (int i = 1; i < m_pinSharer->count(); ++i)
        if (m_pinSharer->itemData(i).toString().compare(pin, Qt::CaseInsensitive) == 0)
            pinIndex = i;
    m_pinSharer->setCurrentIndex(pinIndex);
}

void KeyRoutingDialog::buildProviderList(const QJsonObject &r)
{
    const QStringList never = strings(r.value(ExcludeProviders));
    QStringList providers;
    for (const QJsonValue &v : m_sharers)
        providers << v.toObject().value(QLatin1String("provider")).toString();
    providers << never;
    providers.removeAll(QString());
    providers.removeDuplicates();
    providers.sort();
    m_neverProviders->clear();
    for (const QString &p : providers)
        addItem(m_neverProviders, p, p, never.contains(p));
    const QString pinned = r.value(Provider).toString();
    m_provider->clear();
    m_provider->addItem(QString());
    m_provider->addItems(providers);
    m_provider->setEditText(pinned);
}

void KeyRoutingDialog::addHandle(QListWidget *list)
{
    const QString handle = m_handle->text().trimmed();
    static const QRegularExpression valid(QStringLiteral("^[Ll][0-9A-Fa-f]{16}$"));
    if (!valid.match(handle).hasMatch()) {
        showError(tr("A sharer handle is L followed by 16 hex digits (L1a2b3c4d5e6f7a8b)."));
        return;
    }
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString().compare(handle, Qt::CaseInsensitive) == 0) {
            list->item(i)->setCheckState(Qt::Checked);
            m_handle->clear();
            return;
        }
    addItem(list, handle, handle, true);
    m_handle->clear();
}

QStringList KeyRoutingDialog::checked(const QListWidget *list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            out << list->item(i)->data(Qt::UserRole).toString();
    return out;
}

QJsonObject KeyRoutingDialog::routing() const
{
    QJsonObject r = m_loaded;
    for (const QLatin1String &name : Controlled)
        r.remove(name);
    switch (Ceiling(m_ceilingMode->currentData().toInt())) {
    case Ceiling::PercentOfList:
        r.insert(MaxPricePercent, m_ceiling->value());
        break;
    case Ceiling::PerMillion:
        r.insert(MaxPrice, m_ceiling->value());
        break;
    case Ceiling::None:
        break;
    }
    if (m_floor->value() > 0)
        r.insert(MinPricePercent, m_floor->value());
    if (m_maxCost->value() > 0)
        r.insert(MaxCostUsd, m_maxCost->value());
    if (m_spendLimit->value() > 0)
        r.insert(SpendLimit, m_spendLimit->value());
    const QString provider = m_provider->currentText().trimmed();
    if (!provider.isEmpty())
        r.insert(Provider, provider);
    if (const QStringList never = checked(m_neverProviders); !never.isEmpty())
        r.insert(ExcludeProviders, QJsonArray::fromStringList(never));
    if (m_noTraining->isChecked())
        r.insert(DataCollection, QStringLiteral("deny"));
    if (!m_selfHosted->isChecked())
        r.insert(AllowSelfHosted, false);
    if (const QStringList only = checked(m_onlySharers); !only.isEmpty())
        r.insert(OnlySharers, QJsonArray::fromStringList(only));
    if (const QStringList never = checked(m_neverSharers); !never.isEmpty())
        r.insert(NeverSharers, QJsonArray::fromStringList(never));
    if (m_speed->isChecked())
        r.insert(Prefer, QStringLiteral("speed"));
    if (m_demote->isChecked())
        r.insert(DemoteFailing, true);
    if (m_phaseLimits->isChecked())
        r.insert(PhaseLimits, true);
    if (!m_sticky->isChecked())
        r.insert(Sticky, false);
    if (m_verified->isChecked())
        r.insert(VerifiedOnly, true);
    if (const QString pin = m_pinSharer->currentData().toString(); !pin.isEmpty())
        r.insert(PinSharer, pin);
    if (m_bareAny->isChecked())
        r.insert(BareAny, true);
    else
        r.remove(BareProviders);
    return r;
}

void KeyRoutingDialog::setRouting(const QJsonObject &r)
{
    m_loaded = r;
    if (r.value(MaxPricePercent).toDouble(0) > 0) {
        m_ceilingMode->setCurrentIndex(m_ceilingMode->findData(int(Ceiling::PercentOfList)));
        m_ceiling->setValue(r.value(MaxPricePercent).toDouble());
    } else if (r.value(MaxPrice).toDouble(0) > 0) {
        m_ceilingMode->setCurrentIndex(m_ceilingMode->findData(int(Ceiling::PerMillion)));
        m_ceiling->setValue(r.value(MaxPrice).toDouble());
    } else {
        m_ceilingMode->setCurrentIndex(m_ceilingMode->findData(int(Ceiling::None)));
    }
    m_floor->setValue(r.value(MinPricePercent).toDouble(0));
    m_maxCost->setValue(r.value(MaxCostUsd).toDouble(0));
    m_spendLimit->setValue(r.value(SpendLimit).toDouble(0));
    m_noTraining->setChecked(r.value(DataCollection).toString() == QLatin1String("deny"));
    m_selfHosted->setChecked(r.value(AllowSelfHosted).toBool(true));
    m_speed->setChecked(r.value(Prefer).toString() == QLatin1String("speed"));
    m_demote->setChecked(r.value(DemoteFailing).toBool(false));
    m_phaseLimits->setChecked(r.value(PhaseLimits).toBool(false));
    m_sticky->setChecked(r.value(Sticky).toBool(true));
    m_verified->setChecked(r.value(VerifiedOnly).toBool(false));
    m_bareAny->setChecked(r.value(BareAny).toBool(false));
    // Offered only while it is on, so that it can be turned off; new keys do not get it.
    m_bareAny->setVisible(m_bareAny->isChecked());
    buildSharerLists(r);
    buildProviderList(r);
    showError(QString());
}

void KeyRoutingDialog::load(const QString &keyId)
{
    readKey(keyId, [this](const Api::KeyInfo &key) {
        setWindowTitle(tr("Routing of %1").arg(keyName()));
        titleLabel()->setText(tr("How requests made with key %1 (%2) choose a sharer. Headers on a request can only narrow these; "
                                 "the key's routes are bound by them too.")
                                  .arg(keyName(), key.prefix));
        setRouting(key.routing);
    });
}

void KeyRoutingDialog::save()
{
    const QJsonObject r = routing();
    for (const QLatin1String &list : {OnlySharers, NeverSharers, ExcludeProviders})
        if (r.value(list).toArray().size() > MaxListSize) {
            showError(tr("At most %1 entries in each list.").arg(MaxListSize));
            return;
        }
    putKey(QJsonObject{{QStringLiteral("routing"), r}}, [this](const Api::KeyInfo &key) {
        m_loaded = key.routing;
        Q_EMIT saved(keyId(), keyName());
    });
}

bool KeyRoutingDialog::highlightLever(const QString &objectName)
{
    QWidget *field = objectName.isEmpty() ? nullptr : findChild<QWidget *>(objectName);
    if (!field)
        return false;
    m_highlighted = objectName;
    // The palette's highlight colour, so it reads in light and dark alike.
    field->setStyleSheet(QStringLiteral("#%1 { border: 2px solid palette(highlight); }").arg(objectName));
    field->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace Aile::Ui
