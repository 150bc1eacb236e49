// The two small state machines of a proxied request (dispatch/ProxyRequest.h, dispatch/Attempt.h):
// every move, legal or not, is a row. A request answers once, and an attempt's answer reaches the
// client only after its head (docs/architecture.md "One request's walk").
#include "dispatch/Attempt.h"
#include "dispatch/ProxyRequest.h"

#include <QtTest/QtTest>

using Aile::Dispatch::Attempt;
using Aile::Dispatch::ProxyRequest;
using State = ProxyRequest::State;
using Phase = Attempt::Phase;

namespace {

const QList<State> AllStates{State::Created, State::Dialling, State::Holding, State::Relaying, State::RelayingHeld, State::Finished};
const QList<Phase> AllPhases{Phase::AwaitingHead, Phase::Draining, Phase::AwaitingOutput, Phase::Relaying, Phase::Ended};

// The legal moves, written out as the headers state them.
const QList<QPair<State, State>> RequestMoves{
    {State::Created, State::Dialling},      {State::Created, State::Finished}, // the plan refused it
    {State::Dialling, State::Holding},      {State::Dialling, State::Relaying}, {State::Dialling, State::Finished},
    {State::Holding, State::RelayingHeld},  {State::Holding, State::Finished},  {State::Relaying, State::Finished},
    {State::RelayingHeld, State::Finished},
};
const QList<QPair<Phase, Phase>> AttemptMoves{
    {Phase::AwaitingHead, Phase::Draining}, {Phase::AwaitingHead, Phase::AwaitingOutput}, {Phase::AwaitingHead, Phase::Ended},
    {Phase::Draining, Phase::Ended},        {Phase::AwaitingOutput, Phase::Relaying},     {Phase::AwaitingOutput, Phase::Ended},
    {Phase::Relaying, Phase::Ended},
};

} // namespace

class TestDispatchStates : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void requestMoves_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::addColumn<bool>("legal");
        for (State from : AllStates)
            for (State to : AllStates)
                QTest::addRow("%s -> %s", ProxyRequest::stateName(from), ProxyRequest::stateName(to))
                    << int(from) << int(to) << RequestMoves.contains({from, to});
    }
    void requestMoves()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(bool, legal);
        QCOMPARE(ProxyRequest::canMove(State(from), State(to)), legal);
    }

    void attemptMoves_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::addColumn<bool>("legal");
        for (Phase from : AllPhases)
            for (Phase to : AllPhases)
                QTest::addRow("%s -> %s", Attempt::phaseName(from), Attempt::phaseName(to))
                    << int(from) << int(to) << AttemptMoves.contains({from, to});
    }
    void attemptMoves()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        QFETCH(bool, legal);
        QCOMPARE(Attempt::canMove(Phase(from), Phase(to)), legal);
    }

    // A finished request and an ended attempt move nowhere: nothing answers twice.
    void endsAreFinal()
    {
        for (State to : AllStates)
            QVERIFY(!ProxyRequest::canMove(State::Finished, to));
        for (Phase to : AllPhases)
            QVERIFY(!Attempt::canMove(Phase::Ended, to));
    }
};

QTEST_GUILESS_MAIN(TestDispatchStates)
#include "TestDispatchStates.moc"
