import KgFormal.Explore
import KgFormal.Durability
import KgFormal.FailedAppend
import KgFormal.PushDelivery
import KgFormal.SessionBinding
import KgFormal.RenameLevels
import KgFormal.ShimRetry
import KgFormal.ChoreDispatch
